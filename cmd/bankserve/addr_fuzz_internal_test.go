package main

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

// FuzzCheckAddr checks that -addr takes what the net package will
// listen on as the same port, and that a refusal names the flag and
// quotes the text.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8080", ":0", ":65536", ":-1", "localhost", "[::1]:80", "::1:80", ":http", ":+80", "a:b:c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		if err := checkAddr(addr); err != nil {
			if !strings.Contains(err.Error(), "-addr "+strconv.Quote(addr)) {
				t.Fatalf("checkAddr(%q): %v does not name -addr and quote the text", addr, err)
			}
			return
		}
		_, port, err := net.SplitHostPort(addr)
		if err != nil {
			t.Fatalf("checkAddr(%q) takes what SplitHostPort refuses: %v", addr, err)
		}
		want, _ := strconv.Atoi(port)
		if got, err := net.LookupPort("tcp", port); err != nil || got != want || got < 0 || got > 65535 {
			t.Fatalf("checkAddr(%q) takes port %q, which net reads as %d, %v", addr, port, got, err)
		}
	})
}
