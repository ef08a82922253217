// Package version says what build a command is: the module version and
// the version-control revision Go records in the binary
// (runtime/debug.ReadBuildInfo), or one given at link time, so that
// bankgen and bankquery answer -version alike and a bank's runs record
// the same text.
package version

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// revision is the revision a build gives at link time, for the builds
// Go stamps none (-buildvcs=false, a linked git worktree: golang/go#58218):
//
//	go build -ldflags "-X sudokubank/internal/version.revision=$(git rev-parse HEAD)" ./cmd/...
var revision string

// Info is what the build records about a binary.
type Info struct {
	Module    string // the main module's path
	Version   string // the module version: "(devel)" for a build in a checkout
	GoVersion string // the Go toolchain that built it
	Revision  string // vcs.revision, "" when the build recorded none
	Time      string // vcs.time, the revision's commit time (RFC 3339)
	Modified  bool   // vcs.modified: the tree had changes not committed
	// Linked is set when Revision was given at link time (-ldflags -X)
	// rather than recorded by Go.
	Linked bool
}

// Read returns the build information of the running binary. A test
// binary, or one built without module support, records less: the
// fields it lacks are empty.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{}.WithRevision(revision)
	}
	return FromBuildInfo(bi).WithRevision(revision)
}

// WithRevision returns in with rev, a revision given at link time, as
// its revision; an empty rev changes nothing. It wins over the one Go
// recorded: Go stamps a worktree nested in another checkout with the
// other checkout's revision. Go's commit time and modified flag are kept
// only if they are of the same revision.
func (in Info) WithRevision(rev string) Info {
	if rev == "" {
		return in
	}
	if rev != in.Revision {
		in.Time, in.Modified = "", false
	}
	in.Revision, in.Linked = rev, true
	return in
}

// FromBuildInfo takes the fields of Info from bi.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Module: bi.Main.Path, Version: bi.Main.Version, GoVersion: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// Short is the version and revision on one line, as a bank's runs
// table records the code that wrote a run: "(devel) 1a2b3c... +modified".
func (in Info) Short() string {
	parts := []string{in.Version}
	if in.Revision != "" {
		parts = append(parts, in.Revision)
	}
	if in.Modified {
		parts = append(parts, "+modified")
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// Write prints what -version prints for the command named cmd:
//
//	bankgen (devel)
//	module   sudokubank
//	revision 1a2b3c4d... (2026-11-27T01:00:00Z, modified)
//	go       go1.26.0
//
// A build that recorded no revision (go run, a test binary, a build
// outside a checkout, in a linked git worktree or with -buildvcs=false)
// says so, and how to give one.
func (in Info) Write(w io.Writer, cmd string) error {
	v := in.Version
	if v == "" {
		v = "unknown"
	}
	rev := `not recorded: Go records none with -buildvcs=false, outside a git checkout, or in a linked git worktree; ` +
		`build with -ldflags "-X sudokubank/internal/version.revision=$(git rev-parse HEAD)" to give it`
	if in.Revision != "" {
		var notes []string
		if in.Linked {
			notes = append(notes, "given at link time")
		}
		if in.Time != "" {
			notes = append(notes, in.Time)
		}
		if in.Modified {
			notes = append(notes, "modified")
		}
		rev = in.Revision
		if len(notes) > 0 {
			rev += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	_, err := fmt.Fprintf(w, "%s %s\nmodule   %s\nrevision %s\ngo       %s\n", cmd, v, orUnknown(in.Module), rev, orUnknown(in.GoVersion))
	return err
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
