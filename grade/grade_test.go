package grade_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/grade"
	"sudokubank/solve"
)

// MustParse parses a puzzle or fails the test.
func MustParse(tb testing.TB, s string) solve.Grid {
	tb.Helper()
	g, err := solve.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func TestGradeErrors(t *testing.T) {
	tests := []struct {
		name   string
		puzzle string
		want   error
	}{
		{"Empty", ".................................................................................", solve.ErrMultipleSolutions},
		{"NoSolution", "12345678.........9...............................................................", solve.ErrNoSolution},
		{"Repeated", "11...............................................................................", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g solve.Grid
			for i, r := range tt.puzzle {
				if r >= '1' && r <= '9' {
					g[i] = uint8(r - '0')
				}
			}
			_, err := grade.Rate(g)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestGradeKnown(t *testing.T) {
	tests := []struct {
		name       string
		puzzle     string
		er, ep, ed grade.Rating
		hardest    grade.Technique
		level      grade.Level
	}{
		// From dev_se.txt, where skfr gives the same ER/EP/ED.
		{"HiddenSingles", "9..124.5....56...........3.4.............78...7..329.562.......8...4..9..5.6..38.", 15, 12, 12, grade.HiddenSingleLine, grade.ExtremelyEasy},
		{"XYWing", "6....1....2.....6.9....7.4...451....2.6.3.8.9....695...4.3....5.8.....2....9....7", 42, 12, 12, grade.XYWing, grade.Difficult},
		{"Swordfish", "6..8.1..3......9...1..34.7.8.6..3..7.3..8..4.9..4..2.8.6.31..9...5......3..5.6..4", 38, 12, 12, grade.Swordfish, grade.Medium},
		{"HiddenTriple", ".1........984.........23.......19.67.......8168....54.2.4.6..1.....95....3.......", 40, 12, 12, grade.HiddenTriple, grade.Medium},
		{"XYZWing", "........75..87..9.8...5....6..2......3....26..721.......1..3.7..6.5.1.4...5.4..1.", 44, 12, 12, grade.XYZWing, grade.Difficult},
		{"UniqueLoop", "...921..4..6......1...86.7.8..5......13..........1734.5...4.18..3.8.......7.....2", 46, 12, 12, grade.UniqueLoop, grade.Difficult},
		{"BUG1", ".35............1.3...7...9....48..56..42.....8.1.59.2.2.3....6..19.4.....6......8", 56, 12, 12, grade.BUG1, grade.Difficult},
		{"BUG", "........1....9..675.28..9.....7......6..2.....4...12...9..78...8.......67..6..4.3", 57, 12, 12, grade.BUG2, grade.Difficult},
		{"AlignedPairExclusion", "..79....2...6..547.......9..8..3...45....968..3..1......2..4.7197..6.....4...1...", 62, 12, 12, grade.AlignedPairExclusion, grade.Difficult},
		{"AlignedPairExclusion2", "28...6.....7..9.....42....3....5.6..19......4.489..........514.4...1..7...3..2..5", 62, 12, 12, grade.AlignedPairExclusion, grade.Difficult},
	}
	var g grade.Grader
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gr, err := g.Grade(MustParse(t, tt.puzzle))
			if err != nil {
				t.Fatal(err)
			}
			if gr.ER != tt.er || gr.EP != tt.ep || gr.ED != tt.ed {
				t.Errorf("ER/EP/ED = %s/%s/%s, want %s/%s/%s", gr.ER, gr.EP, gr.ED, tt.er, tt.ep, tt.ed)
			}
			if gr.Hardest != tt.hardest {
				t.Errorf("Hardest = %s, want %s", gr.Hardest.Slug(), tt.hardest.Slug())
			}
			if gr.Level != tt.level {
				t.Errorf("Level = %s, want %s", gr.Level, tt.level)
			}
			if gr.Unfinished {
				t.Error("Unfinished")
			}
			// The path replays to the solution and agrees with the counts.
			p := MustParse(t, tt.puzzle)
			n := 0
			for _, st := range gr.Path {
				for _, pl := range st.Placements {
					p[pl.Cell] = pl.Digit
				}
				n += int(gr.Uses[st.Technique])
			}
			if p != gr.Solution {
				t.Errorf("path ends at %s, want solution %s", p, gr.Solution)
			}
			if gr.Steps != len(gr.Path) {
				t.Errorf("Steps = %d, len(Path) = %d", gr.Steps, len(gr.Path))
			}
			if gr.Score < 1 || gr.Score > 5 {
				t.Errorf("Score = %v, want 1..5", gr.Score)
			}
		})
	}
}

// TestGradeHiddenUniqueRectangle checks the rating of a hidden unique
// rectangle type 3: SE 1.2.1.3 adds 0.1 for each cell of the hidden set
// beyond the first, the two extra cells not counted, so a hidden pair
// (one cell and the two extra cells) adds nothing. SE rates this puzzle
// 4.5: the rectangle r5c5,r5c6,r1c6,r1c5 on 1 and 3, whose extra cells
// r1c5 and r1c6 make a hidden pair with r1c1 in row 1.
func TestGradeHiddenUniqueRectangle(t *testing.T) {
	gr, err := grade.Rate(MustParse(t, "............9...41.....8..3....5......4....7...3289....71.....6.68..7.24.3..65798"))
	if err != nil {
		t.Fatal(err)
	}
	if gr.ER != 45 || gr.Hardest != grade.UniqueRectangle {
		t.Errorf("ER %s, hardest %s; want 4.5, unique-rectangle", gr.ER, gr.Hardest.Slug())
	}
	found := false
	for _, st := range gr.Path {
		if st.Technique != grade.UniqueRectangle {
			continue
		}
		found = true
		if want := []grade.Elimination{{Cell: 0, Digit: 6}}; !slices.Equal(st.Eliminations, want) {
			t.Errorf("unique rectangle eliminates %v, want %v (r1c1<>6)", st.Eliminations, want)
		}
		if st.Rating != 45 {
			t.Errorf("hidden unique rectangle type 3 rated %s, want 4.5", st.Rating)
		}
	}
	if !found {
		t.Error("no unique rectangle in the path")
	}
}

// TestGradeUnfinished checks the flagged path for a puzzle past 6.2 when
// no chain technique finishes it.
func TestGradeUnfinished(t *testing.T) {
	// Rated 7.1 by skfr.
	p := MustParse(t, "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	gr, err := grade.Rate(p)
	if err != nil {
		t.Fatal(err)
	}
	if !gr.Unfinished {
		t.Skip("the chains finish it now")
	}
	if gr.ER != grade.UnfinishedER || gr.Hardest != grade.BruteForce || gr.Level != grade.Evil {
		t.Errorf("ER %s, Hardest %s, Level %s; want %s, brute-force, evil", gr.ER, gr.Hardest.Slug(), gr.Level, grade.UnfinishedER)
	}
	if got, ok := solve.Solve(p); !ok || got != gr.Solution {
		t.Errorf("Solution = %s, want %s", gr.Solution, got)
	}
}

// transform relabels digits, permutes bands, stacks, rows within bands
// and columns within stacks, and may transpose: the moves that keep a
// puzzle the same puzzle up to isomorphism.
func transform(t *rapid.T, p solve.Grid) solve.Grid {
	perm3 := func(label string) []int {
		return rapid.Permutation([]int{0, 1, 2}).Draw(t, label)
	}
	digits := rapid.Permutation([]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}).Draw(t, "digits")
	bands, stacks := perm3("bands"), perm3("stacks")
	var rows, cols [9]int
	for b := 0; b < 3; b++ {
		rp, cp := perm3("rows"), perm3("cols")
		for i := 0; i < 3; i++ {
			rows[b*3+i] = bands[b]*3 + rp[i]
			cols[b*3+i] = stacks[b]*3 + cp[i]
		}
	}
	transpose := rapid.Bool().Draw(t, "transpose")
	var q solve.Grid
	for r := 0; r < 9; r++ {
		for c := 0; c < 9; c++ {
			v := p[rows[r]*9+cols[c]]
			if v != 0 {
				v = digits[v-1]
			}
			if transpose {
				q[c*9+r] = v
			} else {
				q[r*9+c] = v
			}
		}
	}
	return q
}

// TestGradeIsomorphism checks that a relabelled, permuted or transposed
// copy of a puzzle grades the same.
func TestGradeIsomorphism(t *testing.T) {
	var ps []solve.Grid
	for _, rp := range MustReadRated(t, "testdata/se_sample.txt") {
		if rp.source == "gen" || rp.source == "qq" {
			ps = append(ps, rp.puzzle)
		}
	}
	var g grade.Grader
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SampledFrom(ps).Draw(t, "puzzle")
		q := transform(t, p)
		a, err := g.Grade(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := g.Grade(q)
		if err != nil {
			t.Fatal(err)
		}
		if a.ER != b.ER || a.EP != b.EP || a.ED != b.ED || a.Level != b.Level || a.Unfinished != b.Unfinished {
			t.Fatalf("%s grades %s/%s/%s, its copy %s grades %s/%s/%s", p, a.ER, a.EP, a.ED, q, b.ER, b.EP, b.ED)
		}
	})
}

// TestGradeIntoReuses grades the sample in turn into one Grade, with a
// puzzle that fails between, and checks each result against Grade's from
// a fresh Grader: a longer path before a shorter one leaves none of its
// steps behind, and an error leaves what Grade returns. Then it checks
// that the reused path is not allocated again.
func TestGradeIntoReuses(t *testing.T) {
	var ps []solve.Grid
	for _, rp := range MustReadRated(t, "testdata/se_sample.txt")[:60] {
		ps = append(ps, rp.puzzle)
	}
	noSolution := MustParse(t, "12345678.........9...............................................................")
	var g grade.Grader
	var into grade.Grade
	for i, p := range ps {
		if i == len(ps)/2 {
			err := g.GradeInto(noSolution, &into)
			want, wantErr := grade.Rate(noSolution)
			// The path is empty, and still the reused array.
			got := into
			if len(got.Path) == 0 {
				got.Path = nil
			}
			if !errors.Is(err, solve.ErrNoSolution) || err.Error() != wantErr.Error() || !reflect.DeepEqual(got, want) {
				t.Fatalf("GradeInto(no solution) = %+v, %v; want %+v, %v", into, err, want, wantErr)
			}
		}
		if err := g.GradeInto(p, &into); err != nil {
			t.Fatalf("GradeInto(%s): %v", p, err)
		}
		want, err := grade.Rate(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(into, want) {
			t.Fatalf("GradeInto(%s) after %d other grades differs from Grade: %d steps, want %d", p, i, len(into.Path), len(want.Path))
		}
	}
	p := ps[0]
	fresh := testing.AllocsPerRun(20, func() { g.Grade(p) })
	reused := testing.AllocsPerRun(20, func() { g.GradeInto(p, &into) })
	if reused >= fresh {
		t.Errorf("GradeInto allocates %.0f times a grade, Grade %.0f: the path is not reused", reused, fresh)
	}
}

func TestPathRoundTrip(t *testing.T) {
	var g grade.Grader
	for _, rp := range MustReadRated(t, "testdata/se_sample.txt")[:40] {
		gr, err := g.Grade(rp.puzzle)
		if err != nil {
			t.Fatal(err)
		}
		text := grade.FormatPath(gr.Path)
		back, err := grade.ParsePath(text)
		if err != nil {
			t.Fatalf("ParsePath(%q): %v", text, err)
		}
		if got := grade.FormatPath(back); got != text {
			t.Fatalf("round trip:\n got %s\nwant %s", got, text)
		}
		if len(back) != len(gr.Path) {
			t.Fatalf("got %d steps, want %d", len(back), len(gr.Path))
		}
	}
}

func TestParseStepErrors(t *testing.T) {
	for _, s := range []string{
		"", "pointing 2.6 3,4 5 -", "nope 2.6 - - - -", "pointing x - - - -",
		"pointing 2.6 81 - - -", "pointing 2.6 - 0 - -", "pointing 2.6 - - 3=0 -", "pointing 2.6 - - - 3-4",
	} {
		if _, err := grade.ParseStep(s); err == nil {
			t.Errorf("ParseStep(%q): no error", s)
		}
	}
	got, err := grade.ParseStep("naked-single 2.3 40 7 40=7 -")
	if err != nil {
		t.Fatal(err)
	}
	if got.Technique != grade.NakedSingle || got.Rating != 23 || got.Digits != 1<<7 || len(got.Placements) != 1 {
		t.Errorf("ParseStep = %+v", got)
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		name string
		m    grade.Metrics
		w    grade.Weights
		want float64
	}{
		{"Easiest", grade.Metrics{Givens: 55, MinRowCol: 5, ER: 12, SearchNodes: 0}, grade.PaperWeights, 1},
		{"Hardest", grade.Metrics{Givens: 22, MinRowCol: 0, ER: 90, SearchNodes: 1 << 20}, grade.PaperWeights, 5},
		{"Mixed", grade.Metrics{Givens: 24, MinRowCol: 5, ER: 12, SearchNodes: 0}, grade.PaperWeights, 0.4*5 + 0.6*1},
		{"OnlyER", grade.Metrics{Givens: 24, MinRowCol: 0, ER: 42, SearchNodes: 0}, grade.Weights{0, 0, 1, 0}, 4},
		{"NoWeights", grade.Metrics{}, grade.Weights{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.Score(tt.w); got < tt.want-1e-9 || got > tt.want+1e-9 {
				t.Errorf("Score = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMetricsOf(t *testing.T) {
	p := MustParse(t, "9..124.5....56...........3.4.............78...7..329.562.......8...4..9..5.6..38.")
	got := grade.MetricsOf(p)
	if got.Givens != p.Givens() {
		t.Errorf("Givens = %d, want %d", got.Givens, p.Givens())
	}
	if got.MinRowCol != 0 {
		t.Errorf("MinRowCol = %d, want 0 (row 3 is empty)", got.MinRowCol)
	}
}

// FuzzParseStep checks that every step ParseStep accepts prints back to
// a text that parses to the same step.
func FuzzParseStep(f *testing.F) {
	f.Add("pointing 2.6 3,4 5 - 6:5,7:5")
	f.Add("naked-single 2.3 40 7 40=7 -")
	f.Add("bug-1 5.6 27 4 - 27:3,27:9")
	f.Fuzz(func(t *testing.T, s string) {
		st, err := grade.ParseStep(s)
		if err != nil {
			return
		}
		text := st.String()
		back, err := grade.ParseStep(text)
		if err != nil {
			t.Fatalf("ParseStep(%q) = %v, its String %q does not parse: %v", s, st, text, err)
		}
		if back.String() != text {
			t.Fatalf("round trip of %q: %q, then %q", s, text, back.String())
		}
	})
}

// TestGradeEvilDigs checks the grades of the evil digs that
// BenchmarkGradeEvil times and of the hard digs that BenchmarkGradeHard
// times: the searches that skip work on evil grids, and the forcing
// chains that rate the hard ones, must leave their ratings as they were.
func TestGradeEvilDigs(t *testing.T) {
	for _, file := range []string{"testdata/evil_digs.txt", "testdata/hard_digs.txt"} {
		t.Run(file, func(t *testing.T) {
			ps := MustReadRated(t, file)
			if testing.Short() {
				ps = ps[:50]
			}
			var g grade.Grader
			for _, rp := range ps {
				gr, err := g.Grade(rp.puzzle)
				if err != nil {
					t.Fatalf("%s: %v", rp.puzzle, err)
				}
				if gr.ER != rp.er || gr.EP != rp.ep || gr.ED != rp.ed {
					t.Errorf("%s: ER/EP/ED %s/%s/%s, want %s/%s/%s", rp.puzzle, gr.ER, gr.EP, gr.ED, rp.er, rp.ep, rp.ed)
				}
			}
		})
	}
}
