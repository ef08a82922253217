package version_test

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"sudokubank/internal/version"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name  string
		bi    debug.BuildInfo
		rev   string // given at link time
		want  string
		short string
	}{
		{
			name: "Checkout",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "sudokubank", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-27T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			want:  "bankgen (devel)\nmodule   sudokubank\nrevision abc123 (2026-11-27T01:00:00Z, modified)\ngo       go1.26.0\n",
			short: "(devel) abc123 +modified",
		},
		{
			name:  "Release",
			bi:    debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "sudokubank", Version: "v1.2.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "def"}, {Key: "vcs.modified", Value: "false"}}},
			want:  "bankgen v1.2.0\nmodule   sudokubank\nrevision def\ngo       go1.26.0\n",
			short: "v1.2.0 def",
		},
		{
			name:  "NoVCS",
			bi:    debug.BuildInfo{Main: debug.Module{Path: "sudokubank", Version: "(devel)"}},
			want:  "bankgen (devel)\nmodule   sudokubank\nrevision " + notRecorded + "\ngo       unknown\n",
			short: "(devel)",
		},
		{
			name:  "Linked",
			bi:    debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "sudokubank", Version: "(devel)"}},
			rev:   "abc123",
			want:  "bankgen (devel)\nmodule   sudokubank\nrevision abc123 (given at link time)\ngo       go1.26.0\n",
			short: "(devel) abc123",
		},
		{
			// Go stamped a worktree nested in another checkout with that
			// checkout's revision and state: the linked one is the build's.
			name: "LinkedOverOther",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "sudokubank", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "other"}, {Key: "vcs.time", Value: "2026-11-27T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			rev:   "abc123",
			want:  "bankgen (devel)\nmodule   sudokubank\nrevision abc123 (given at link time)\ngo       go1.26.0\n",
			short: "(devel) abc123",
		},
		{
			name: "LinkedSame",
			bi: debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "sudokubank", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-27T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			rev:   "abc123",
			want:  "bankgen (devel)\nmodule   sudokubank\nrevision abc123 (given at link time, 2026-11-27T01:00:00Z, modified)\ngo       go1.26.0\n",
			short: "(devel) abc123 +modified",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := version.FromBuildInfo(&tt.bi).WithRevision(tt.rev)
			var b strings.Builder
			if err := in.Write(&b, "bankgen"); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("Write:\n%s\nwant:\n%s", got, tt.want)
			}
			if got := in.Short(); got != tt.short {
				t.Errorf("Short = %q, want %q", got, tt.short)
			}
		})
	}
}

// notRecorded is what -version says of a build with no revision.
const notRecorded = `not recorded: Go records none with -buildvcs=false, outside a git checkout, or in a linked git worktree; ` +
	`build with -ldflags "-X sudokubank/internal/version.revision=$(git rev-parse HEAD)" to give it`

// TestLinkedRevision builds a program with the -ldflags that -version's
// message gives, with -buildvcs=false as Go builds in a linked worktree:
// the revision it names is the one -version prints.
func TestLinkedRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "printversion")
	build := exec.Command("go", "build", "-buildvcs=false", "-o", bin,
		"-ldflags", "-X sudokubank/internal/version.revision=0123abcd", "./testdata/printversion")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "\nrevision 0123abcd (given at link time)\n"; !strings.Contains(string(out), want) {
		t.Errorf("-version printed:\n%s\nwant %q in it", out, want)
	}
}
