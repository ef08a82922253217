package version_test

import (
	"runtime/debug"
	"strings"
	"testing"

	"sudokubank/internal/version"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name  string
		bi    debug.BuildInfo
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
			want:  "bankgen (devel)\nmodule   sudokubank\nrevision not recorded (built outside a VCS checkout, or with -buildvcs=false)\ngo       unknown\n",
			short: "(devel)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := version.FromBuildInfo(&tt.bi)
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
