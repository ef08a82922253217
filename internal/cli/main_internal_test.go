package cli

import "testing"

// TestStoppingLine checks that the line printed on the first signal
// starts a line of its own on a terminal, where the progress bar it
// interrupts has no newline, and is plain text elsewhere.
func TestStoppingLine(t *testing.T) {
	p := Program{Stopping: "x: stopping"}
	for _, tt := range []struct {
		name     string
		terminal bool
		want     string
	}{
		{"Terminal", true, "\r\x1b[Kx: stopping\n"},
		{"NotTerminal", false, "x: stopping\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.stoppingLine(tt.terminal); got != tt.want {
				t.Errorf("stoppingLine(%v) = %q, want %q", tt.terminal, got, tt.want)
			}
		})
	}
}

// TestStoppingNow checks that StoppingNow's line replaces Stopping's
// while it has one, as bankgen's does during a migration, and that ""
// leaves Stopping's.
func TestStoppingNow(t *testing.T) {
	now := ""
	p := Program{Stopping: "x: stopping", StoppingNow: func() string { return now }}
	if got, want := p.stoppingLine(false), "x: stopping\n"; got != want {
		t.Errorf("stoppingLine with StoppingNow \"\" = %q, want %q", got, want)
	}
	now = "x: stopping the migration"
	if got, want := p.stoppingLine(true), "\r\x1b[Kx: stopping the migration\n"; got != want {
		t.Errorf("stoppingLine with StoppingNow %q = %q, want %q", now, got, want)
	}
}
