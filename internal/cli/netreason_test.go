package cli_test

import (
	"errors"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	"sudokubank/internal/cli"
)

// NetReason keeps the system's reason of a failed dial or listen, and a
// name lookup's failure whole, without the operation's wording.
func TestNetReason(t *testing.T) {
	refused := &url.Error{Op: "Get", URL: "http://127.0.0.1:1/healthz", Err: &net.OpError{Op: "dial", Net: "tcp",
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}
	if got := cli.NetReason(refused); got != syscall.ECONNREFUSED {
		t.Errorf("NetReason(refused dial) = %v, want %v", got, syscall.ECONNREFUSED)
	}
	dns := &net.DNSError{Err: "no such host", Name: "nohost.invalid"}
	if got := cli.NetReason(&net.OpError{Op: "listen", Net: "tcp", Err: dns}); got != dns {
		t.Errorf("NetReason(lookup) = %v, want %v", got, dns)
	}
	other := errors.New("other")
	if got := cli.NetReason(&url.Error{Op: "Get", URL: "x", Err: other}); got != other {
		t.Errorf("NetReason(url error) = %v, want %v", got, other)
	}
	if got := cli.NetReason(other); got != other {
		t.Errorf("NetReason(other) = %v, want it as it is", got)
	}
}
