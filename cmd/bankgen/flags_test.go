package main

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/pipeline"
)

func TestParseLevels(t *testing.T) {
	tests := []struct {
		in      string
		want    []grade.Level
		wantErr string
	}{
		{"easy", []grade.Level{grade.Easy}, ""},
		{"5,extremely-easy", []grade.Level{grade.Evil, grade.ExtremelyEasy}, ""},
		{" Medium , 4", []grade.Level{grade.Medium, grade.Difficult}, ""},
		{"easy,2", nil, "given twice"},
		{"", nil, "unknown level"},
		{"6", nil, "unknown level"},
		{"easy,,evil", nil, "unknown level"},
	}
	for _, tt := range tests {
		got, err := parseLevels(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseLevels(%q) error = %v, want one saying %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("parseLevels(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseQuota(t *testing.T) {
	tests := []struct {
		in      string
		want    pipeline.Levels
		wantErr string
	}{
		{"easy=1000,evil=200", pipeline.Levels{0, 0, 1000, 0, 0, 200}, ""},
		{"1=5", pipeline.Levels{0, 5}, ""},
		{"medium=0", pipeline.Levels{}, ""},
		{"easy", pipeline.Levels{}, "not LEVEL=N"},
		{"easy=-1", pipeline.Levels{}, "whole number"},
		{"easy=1.5", pipeline.Levels{}, "whole number"},
		{"hard=3", pipeline.Levels{}, "unknown level"},
		{"easy=1,2=3", pipeline.Levels{}, "given twice"},
	}
	for _, tt := range tests {
		got, err := parseQuota(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseQuota(%q) error = %v, want one saying %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseQuota(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseGenerateErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in the message
	}{
		{"BadLevel", []string{"-level", "hard"}, `"hard" for flag -level`},
		{"BadQuota", []string{"-quota", "easy=x"}, `"easy=x" for flag -quota`},
		{"BadSymmetry", []string{"-symmetry", "spiral"}, `"spiral" for flag -symmetry`},
		{"BadCount", []string{"-count", "many"}, `"many" for flag -count`},
		{"NegativeCount", []string{"-count", "-3"}, "-count"},
		{"NegativeVariants", []string{"-variants", "-1"}, "-variants"},
		{"ZeroWorkers", []string{"-workers", "0"}, "-workers"},
		{"BadSeed", []string{"-seed", "x"}, `"x" for flag -seed`},
		{"CountAndQuota", []string{"-count", "5", "-quota", "easy=1"}, "-count and -quota"},
		{"LevelAndQuota", []string{"-level", "5", "-quota", "easy=1"}, "-level and -quota"},
		{"Argument", []string{"extra"}, `"extra"`},
		{"UnknownFlag", []string{"-colour"}, "-colour"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseGenerate(tt.args, io.Discard)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("parseGenerate(%q) = %v, want a usage error saying %q", tt.args, err, tt.want)
			}
			if got, want := exitCode(err, io.Discard), 2; got != want {
				t.Errorf("exit code %d, want %d", got, want)
			}
		})
	}
}

func TestParseGenerateDefaults(t *testing.T) {
	o, err := parseGenerate(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.db != "puzzles.db" || o.count != 1000 || o.levels != nil || o.quota.set || o.variants != 0 ||
		o.symmetry.String() != "none" || o.seedSet || o.workers < 1 || o.quiet {
		t.Errorf("defaults = %+v", o)
	}
	o, err = parseGenerate([]string{"-seed", "0x2a"}, io.Discard)
	if err != nil || o.seed != 42 || !o.seedSet {
		t.Errorf("-seed 0x2a: seed %d, set %v, err %v; want 42", o.seed, o.seedSet, err)
	}
}

func FuzzParseLevels(f *testing.F) {
	for _, s := range []string{"easy", "1,2,3", "evil,4", "", ",", "EXTREMELY-EASY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := parseLevels(s)
		if err != nil {
			return
		}
		again, err := parseLevels(formatLevels(ls))
		if err != nil || !slices.Equal(again, ls) {
			t.Errorf("%q -> %v -> %q -> %v, %v", s, ls, formatLevels(ls), again, err)
		}
	})
}

func FuzzParseQuota(f *testing.F) {
	for _, s := range []string{"easy=1000,evil=200", "1=0", "=", "easy=", "evil=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuota(s)
		if err != nil {
			return
		}
		for l, n := range q {
			if n < 0 || (l == 0 && n != 0) {
				t.Fatalf("parseQuota(%q) = %v", s, q)
			}
		}
		if q.Total() == 0 {
			return
		}
		again, err := parseQuota(formatQuota(q))
		if err != nil || again != q {
			t.Errorf("%q -> %v -> %q -> %v, %v", s, q, formatQuota(q), again, err)
		}
	})
}

func FuzzParseSymmetry(f *testing.F) {
	for _, s := range []string{"none", "rot180", "random", "Mirror", " flip ", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		f, err := parseSymmetry(s)
		if err != nil {
			return
		}
		again, err := parseSymmetry(f.String())
		if err != nil || again != f {
			t.Errorf("%q -> %v -> %q -> %v, %v", s, f, f.String(), again, err)
		}
	})
}

func TestSeconds(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0.00s"},
		{49 * time.Millisecond, "0.05s"},
		{5304 * time.Millisecond, "5.30s"},
		{9994 * time.Millisecond, "9.99s"},
		{10 * time.Second, "10.0s"},
		{31*time.Minute + 4*time.Second, "1864.0s"},
	} {
		if got := seconds(c.d); got != c.want {
			t.Errorf("seconds(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestParseSync(t *testing.T) {
	tests := []struct {
		args     []string
		wantFull bool
		wantErr  bool
	}{
		{nil, false, false},
		{[]string{"-sync", "normal"}, false, false},
		{[]string{"-sync", "full"}, true, false},
		{[]string{"-sync", "fsync"}, false, true},
	}
	for _, tt := range tests {
		o, err := parseGenerate(tt.args, io.Discard)
		if (err != nil) != tt.wantErr || err == nil && o.sync.full != tt.wantFull {
			t.Errorf("parseGenerate(%q) = sync full %v, error %v; want full %v, error %v", tt.args, o.sync.full, err, tt.wantFull, tt.wantErr)
		}
		im, err := parseImport(append(tt.args, "f.txt"), io.Discard)
		if (err != nil) != tt.wantErr || err == nil && im.sync.full != tt.wantFull {
			t.Errorf("parseImport(%q) = sync full %v, error %v; want full %v, error %v", tt.args, im.sync.full, err, tt.wantFull, tt.wantErr)
		}
	}
}
