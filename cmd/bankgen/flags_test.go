package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/grid"
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
		want    pipeline.LevelCounts
		wantErr string
	}{
		{"easy=1000,evil=200", pipeline.LevelCounts{0, 0, 1000, 0, 0, 200}, ""},
		{"1=5", pipeline.LevelCounts{0, 5}, ""},
		{"medium=0", pipeline.LevelCounts{}, ""},
		{"easy", pipeline.LevelCounts{}, "not LEVEL=N"},
		{"easy=-1", pipeline.LevelCounts{}, "whole number"},
		{"easy=1.5", pipeline.LevelCounts{}, "whole number"},
		{"hard=3", pipeline.LevelCounts{}, "unknown level"},
		{"easy=1,2=3", pipeline.LevelCounts{}, "given twice"},
		{"evil=100000000", pipeline.LevelCounts{0, 0, 0, 0, 0, 100000000}, ""},
		{"evil=100000001", pipeline.LevelCounts{}, "must be 100000000 or fewer"},
		{"x-wing=5,9.0-=100", pipeline.LevelCounts{}, ""},
		{"easy=5,9.0-=100", pipeline.LevelCounts{}, "cannot be mixed"},
		{"x-wing=5,X-Wing=6", pipeline.LevelCounts{}, "x-wing given twice"},
		{"9.0-=5,0-=6", pipeline.LevelCounts{}, "unknown level"},
	}
	for _, tt := range tests {
		got, _, err := parseQuota(tt.in)
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
		{"AbsurdWorkers", []string{"-workers", "100000"}, "-workers: want 1 to"},
		{"BadSeed", []string{"-seed", "x"}, `"x" for flag -seed`},
		{"GivensTooFew", []string{"-givens", "10-20"}, `"10-20" for flag -givens`},
		{"GivensTooMany", []string{"-givens", "30-81"}, `"30-81" for flag -givens`},
		// A number past any size's range is reported with the run's
		// range, not with the widest size's.
		{"GivensZero", []string{"-givens", "0-30"}, `"0-30" for flag -givens: 0 is out of range 17-80`},
		{"GivensPastAnySize", []string{"-givens", "30-700"}, `"30-700" for flag -givens: 700 is out of range 17-80`},
		{"GivensZeroSize4", []string{"-size", "4", "-givens", "0-5"}, `"0-5" for flag -givens: 0 is out of range 1-15`},
		{"GivensReversed", []string{"-givens", "38-30"}, `"38-30" for flag -givens`},
		{"GivensNotARange", []string{"-givens", "30-35-38"}, `"30-35-38" for flag -givens`},
		{"GivensEmpty", []string{"-givens", ""}, `"" for flag -givens`},
		{"CountAndQuota", []string{"-count", "5", "-quota", "easy=1"}, "-count and -quota"},
		{"LevelAndQuota", []string{"-level", "5", "-quota", "easy=1"}, "-level and -quota cannot be used together: -quota names its levels"},
		// A quota of techniques names no levels: it counts the families
		// of every level that meet its keys.
		{"LevelAndTechniqueQuota", []string{"-level", "easy", "-quota", "x-wing=2"}, "-level cannot be used with a -quota of techniques or rating bands: the quota counts the bank's families of every level"},
		{"LevelAndBandQuota", []string{"-level", "evil", "-quota", "9.0-=2"}, "-level cannot be used with a -quota of techniques or rating bands"},
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
			if got, want := program.Report(io.Discard, err), 2; got != want {
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

func TestParseGivens(t *testing.T) {
	tests := []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"30-38", 30, 38, true},
		{" 30 - 38 ", 30, 38, true},
		{"30", 30, 30, true},
		{"30-", 30, 80, true},
		{"-25", 17, 25, true},
		{"17-80", 17, 80, true},
		{"16-30", 0, 0, false},
		{"30-81", 0, 0, false},
		{"38-30", 0, 0, false},
		{"-", 0, 0, false},
		{"", 0, 0, false},
		{"x-38", 0, 0, false},
		{"30--38", 0, 0, false},
	}
	for _, tt := range tests {
		lo, hi, err := parseGivens(tt.in, grid.Nine)
		if (err == nil) != tt.ok || lo != tt.lo || hi != tt.hi {
			t.Errorf("parseGivens(%q) = %d, %d, %v; want %d, %d, ok %v", tt.in, lo, hi, err, tt.lo, tt.hi, tt.ok)
		}
	}
}

// FuzzParseGivens checks that what -givens accepts for 9x9 is a range
// within 17-80 that reads back the same.
func FuzzParseGivens(f *testing.F) {
	for _, s := range []string{"30-38", "30-", "-25", "30", "16-30", "38-30", "-", "", "1-2-3", "99999999999999999999-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var g givensFlag
		if err := g.Set(s); err != nil || g.bounds(grid.Nine) != nil {
			return
		}
		if g.lo < minGivens || g.hi > maxGivens || g.lo > g.hi {
			t.Fatalf("parseGivens(%q) = %d, %d", s, g.lo, g.hi)
		}
		var again givensFlag
		if err := again.Set(g.String()); err != nil || again.bounds(grid.Nine) != nil || again.lo != g.lo || again.hi != g.hi {
			t.Errorf("%q -> %v -> %q -> %v, %v", s, g, g.String(), again, err)
		}
	})
}

// TestUsageGivesDefaultGivens checks that the usage text states each
// level's default givens as the pipeline digs them.
func TestUsageGivesDefaultGivens(t *testing.T) {
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		lo, hi := pipeline.DefaultGivens(l)
		if want := fmt.Sprintf("%s %d-%d", l, lo, hi); !strings.Contains(generateUsage, want) {
			t.Errorf("usage does not say %q", want)
		}
	}
	for _, s := range grid.Shapes {
		var ranges []string
		for _, l := range pipeline.SizedLevels(s) {
			lo, hi := pipeline.SizedLevelGivens(s, l)
			ranges = append(ranges, fmt.Sprintf("%d-%d", lo, hi))
		}
		want := fmt.Sprintf("%-6s %s\n", s.String()+":", strings.Join(ranges, ", "))
		switch s.N {
		case 9:
			continue
		case 4:
			want = "extremely-easy, " + ranges[0] + ")"
		}
		if !strings.Contains(generateUsage, want) {
			t.Errorf("usage does not say %q", want)
		}
	}
	if want := fmt.Sprintf("after %d tries", pipeline.GiveUpItems); !strings.Contains(generateUsage, want) {
		t.Errorf("usage does not say %q", want)
	}
	if want := fmt.Sprintf("no search meets in %d tries", pipeline.GiveUpSearchItems); !strings.Contains(generateUsage, want) {
		t.Errorf("usage does not say %q", want)
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
	for _, s := range []string{"easy=1000,evil=200", "1=0", "=", "easy=", "evil=99999999999999999999", "x-wing=5,9.0-=3", "7.0-7.4=1,easy=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, keys, err := parseQuota(s)
		if err != nil {
			return
		}
		if len(keys) > 0 && q != (pipeline.LevelCounts{}) {
			t.Fatalf("parseQuota(%q) mixes levels %v and keys %v", s, q, keys)
		}
		for _, k := range keys {
			if k.Want < 0 || k.Want > maxFamilies || (k.Hardest == grade.NoTechnique) == (k.RatingMin == 0 && k.RatingMax == 0) {
				t.Fatalf("parseQuota(%q): key %+v", s, k)
			}
		}
		for l, n := range q {
			if n < 0 || (l == 0 && n != 0) {
				t.Fatalf("parseQuota(%q) = %v", s, q)
			}
		}
		if q.Total() == 0 {
			return
		}
		again, _, err := parseQuota(formatQuota(q))
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

func TestSummarySaysFewerVariants(t *testing.T) {
	tests := []struct {
		name             string
		families, puzzle int64
		want             string // "" when the summary must not mention a shortfall
	}{
		{"AllStored", 3, 3 * 21, ""},
		{"FiveShort", 3, 3*21 - 5, "5 variants fewer than -variants 20 asks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			var s pipeline.Summary
			s.Families, s.Puzzles = tt.families, tt.puzzle
			printSummary(&b, generateOptions{db: "b.db", variants: 20}, 1, s, nil)
			got := b.String()
			if tt.want == "" && strings.Contains(got, "fewer") || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("summary:\n%s\nwant it to say %q", got, tt.want)
			}
		})
	}
}

// TestSummaryCountsOverQuota checks that the families the store left
// out at a quota are counted as such, not among the unwanted levels, in
// the summary of a run of level or key quotas.
func TestSummaryCountsOverQuota(t *testing.T) {
	for _, quota := range []string{"evil=10", "x-wing=10,9.0-=5"} {
		t.Run(quota, func(t *testing.T) {
			o, err := parseGenerate([]string{"-quota", quota}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var s pipeline.Summary
			s.Families, s.Puzzles, s.OffLevel, s.OverQuota = 7, 7, 1, 3
			var b strings.Builder
			printSummary(&b, o, 1, s, nil)
			if got := b.String(); !strings.Contains(got, "1 of unwanted levels") || !strings.Contains(got, ", 3 over quota") {
				t.Errorf("summary:\n%s\nwant 1 of unwanted levels and 3 over quota", got)
			}
		})
	}
}

// TestSummaryCountsOffGivens checks that a run without -givens still
// counts the digs left out for lying outside their level's givens: the
// runs table counts them as rejected, and a summary that leaves them out
// does not add up to it.
func TestSummaryCountsOffGivens(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"LevelGivens", nil, ", 10 outside their level's givens"},
		{"GivensFlag", []string{"-givens", "30-40"}, ", 10 outside 30-40 givens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseGenerate(tt.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var s pipeline.Summary
			s.Families, s.Puzzles, s.OffGivens = 7, 7, 10
			var b strings.Builder
			printSummary(&b, o, 1, s, nil)
			if got := b.String(); !strings.Contains(got, tt.want) {
				t.Errorf("summary:\n%s\nwant %q", got, tt.want)
			}
		})
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

// TestSameJob checks which earlier runs' command lines a -shard run
// counts as its own job's: those whose flags make the same families,
// however they are written, and whichever bank, workers, progress, sync
// and profiles they had.
func TestSameJob(t *testing.T) {
	o, err := parseGenerate([]string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "-db", "rs.db"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want bool
	}{
		{"Same", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "-db", "rs.db"}, true},
		{"Rewritten", []string{"--level=5", "-count=12000", "-shard", " 1 / 4", "-seed", "0x2a"}, true},
		{"OtherRunFlags", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "-db", "moved.db",
			"-workers", "100000", "-quiet", "-sync", "full", "-cpuprofile", "cpu.out", "-memprofile", "mem.out"}, true},
		{"WorkersEquals", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "--workers=3"}, true},
		// Shard 1/4 of 12,001 is 3,000 families too, from the same items.
		{"SameShare", []string{"-seed", "42", "-shard", "1/4", "-count", "12001", "-level", "evil"}, true},
		{"OtherSeed", []string{"-seed", "43", "-shard", "1/4", "-count", "12000", "-level", "evil"}, false},
		{"OtherShard", []string{"-seed", "42", "-shard", "2/4", "-count", "12000", "-level", "evil"}, false},
		{"OtherCount", []string{"-seed", "42", "-shard", "1/4", "-count", "16000", "-level", "evil"}, false},
		{"OtherLevels", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil,4"}, false},
		{"Variants", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "-variants", "1"}, false},
		{"Givens", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "-givens", "22-26"}, false},
		{"NoShard", []string{"-seed", "42", "-count", "12000", "-level", "evil"}, false},
		{"Unparsable", []string{"-seed", "42", "-shard", "1/4", "-count", "12000", "-level", "evil", "-nope"}, false},
		{"NotRecorded", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameJob(tt.args, o); got != tt.want {
				t.Errorf("sameJob(%q) = %v, want %v", tt.args, got, tt.want)
			}
		})
	}
}

// TestRate checks the summary's rates: a run of slow families shows
// them, not 0 families/s.
func TestRate(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		secs float64
		want string
	}{
		{10, 23.5, "0.43"},
		{1, 120, "0.0083"},
		{10, 4, "2.5"},
		{3000, 2, "1500"},
		{0, 3, "0"},
	} {
		if got := rate(tt.n, tt.secs); got != tt.want {
			t.Errorf("rate(%d, %g) = %q, want %q", tt.n, tt.secs, got, tt.want)
		}
	}
}
