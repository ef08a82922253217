package grade

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"sudokubank/grid"
)

// TestSizedForcingAgreesWithGrader grades a seeded sample of the rated
// puzzles whose SE rating is 7.5 to 9.0 with both graders and compares
// ER, EP, ED, hardest technique and level wherever the 9x9 grade's path
// uses no technique the sized grader lacks (nested forcing chains).
func TestSizedForcingAgreesWithGrader(t *testing.T) {
	lines := ratedLines(t, 75, 90)
	rng := rand.New(rand.NewPCG(26, 75))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	n := 120
	if testing.Short() {
		n = 24
	}
	lines = lines[:min(n, len(lines))]
	var g9 Grader
	g9.chains.maxLevel = 2 // as the sized grader's below
	g := SizedGrader{maxLevel: 2}
	cmp, same, lacking := 0, 0, 0
	for _, l := range lines {
		want, err := g9.Grade(mustSolveGrid(t, l))
		if err != nil {
			t.Fatal(err)
		}
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if !sizedCovers(want) {
			lacking++
			continue
		}
		cmp++
		if gr.ER != want.ER || gr.Hardest != want.Hardest || gr.Level != want.Level || gr.EP != want.EP || gr.ED != want.ED {
			t.Errorf("%s: sized %s/%s/%s %s, 9x9 %s/%s/%s %s", l, gr.ER, gr.EP, gr.ED, gr.Hardest.Slug(), want.ER, want.EP, want.ED, want.Hardest.Slug())
			continue
		}
		same++
	}
	t.Logf("%d of %d rated 7.5-9.0 puzzles within the sized techniques agree on ER, EP, ED, hardest and level; %d need a technique the sized grader lacks", same, cmp, lacking)
}

// sizedCovers reports whether every step of the 9x9 grade gr uses a
// technique the sized grader implements.
func sizedCovers(gr Grade) bool {
	for t, n := range gr.Uses {
		if n > 0 && !sizedImplemented(Technique(t)) {
			return false
		}
	}
	return true
}

// TestSizedForcingBudget: a forcing chain producer that runs past its
// node budget finds nothing, so the puzzle ends unfinished after the
// same steps as the full grade made before its first forcing chain, and
// the cut grade is deterministic.
func TestSizedForcingBudget(t *testing.T) {
	tests := []struct {
		name, puzzle string
	}{
		{"9x9 multiple forcing chains", ".4.2.6.7...1..........34....1..2.5..27.8.9.1..8........3..5.7..........89......61"},
		{"16x16 fixture", readSizedFixtures(t)[16][0].String()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustSizedGrid(t, tc.puzzle)
			full, err := NewSized().GradeContext(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			cut := 0
			for cut < len(full.Steps) && full.Steps[cut].Technique < Nishio {
				cut++
			}
			if cut == len(full.Steps) {
				t.Fatalf("%s: no forcing chain in the full grade (%s %s)", p, full.ER, full.Hardest.Slug())
			}
			gr := gradeTwiceWith(t, p, func(f *sforce) { f.budget = 1000 })
			if !gr.Unfinished || gr.ER != UnfinishedER || len(gr.Steps) != cut || !reflect.DeepEqual(gr.Steps, full.Steps[:cut]) {
				t.Errorf("%s: budgeted grade %s %s after %d steps, want unfinished after the %d steps before the first forcing chain", p, gr.ER, gr.Hardest.Slug(), len(gr.Steps), cut)
			}
		})
	}
}

// TestSizedGradeWithin: below the forcing chains' ratings a ceiling
// stops the grade before their search, with an ER and level above it;
// an open or high enough ceiling gives GradeContext's grade.
func TestSizedGradeWithin(t *testing.T) {
	p := mustSizedGrid(t, ".4.2.6.7...1..........34....1..2.5..27.8.9.1..8........3..5.7..........89......61")
	ctx := context.Background()
	full, err := NewSized().GradeContext(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		ceiling Rating
		ok      bool
	}{
		{"open", 0, true},
		{"at ER", full.ER, true},
		{"below ER", full.ER - 1, false},
		{"difficult", Levels[Difficult-1].MaxER, false},
		{"medium", Levels[Medium-1].MaxER, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gr, ok, err := NewSized().GradeWithinContext(ctx, p, Bounds{Ceiling: tc.ceiling})
			if err != nil || ok != tc.ok {
				t.Fatalf("GradeWithinContext = %v, %v, want %v", ok, err, tc.ok)
			}
			if ok {
				if !reflect.DeepEqual(gr, full) {
					t.Errorf("grade within %s differs from GradeContext's", tc.ceiling)
				}
				return
			}
			if gr.ER <= tc.ceiling || gr.Level != LevelOf(gr.ER) {
				t.Errorf("stopped grade %s %s, want above %s", gr.ER, gr.Level, tc.ceiling)
			}
		})
	}
}

// TestSizedPlusAgreesWithGrader grades the rated puzzles whose SE rating
// is 9.0 to 10.5 with both graders, the 9x9 one kept to dynamic forcing
// chains (+) as the sized one is, and compares the whole grade (ratings,
// level, steps, hardest and the hash of every step): where the 9x9
// grader finishes, so must the sized one, with the same path; where it
// stops for want of nested chains, the sized one stops at the same step.
func TestSizedPlusAgreesWithGrader(t *testing.T) {
	lines := ratedLines(t, 90, 105)
	rng := rand.New(rand.NewPCG(26, 90))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	if testing.Short() {
		lines = lines[:min(16, len(lines))]
	}
	var g9 Grader
	g9.chains.maxLevel = 2 // as the sized grader's below
	g := SizedGrader{maxLevel: 2}
	plus, unfinished := 0, 0
	for _, l := range lines {
		p := mustSolveGrid(t, l)
		want, err := g9.Grade(p)
		if err != nil {
			t.Fatal(err)
		}
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if want.Uses[DynamicForcingChainsPlus] > 0 {
			plus++
		}
		if gr.Unfinished {
			unfinished++
		}
		if got, want := sizedGoldenLine(p, gr), gradesGoldenLine(p, want); got != want {
			t.Errorf("sized grade differs:\n got %s\nwant %s", got, want)
		}
	}
	t.Logf("%d rated 9.0-10.5 puzzles compared; %d use dynamic forcing chains (+); %d stop where deeper nested chains are needed", len(lines), plus, unfinished)
}

// TestSizedForcingCacheModes grades a 16x16 puzzle that needs dynamic
// forcing chains (+) with the runs cached as dense sets (16x16's way),
// as lists of nodes (25x25's way) and not at all: the cache only spares
// work, so the three grades are the same.
func TestSizedForcingCacheModes(t *testing.T) {
	p := mustSizedGrid(t, ".2DC...F..49..5....G.8C....5...19F.4.7.B2...D6.C.......G...B.....3..........81.2E.4.6C.8...G...5.....3A...E..G.9B...E......4.....1.B......5..7..25..A...D.9.C...79....54C....E....369D...E.72.48F.....8.A.3.9...D487C.135....2.F.......7..2.1...6..2B.E..F...8.7")
	modes := []struct {
		name string
		set  func(f *sforce)
	}{
		{"Dense", func(f *sforce) {}},
		{"Sparse", func(f *sforce) {
			f.cache = nil
			f.stampOf = make([]uint32, 2*f.nk)
		}},
		{"None", func(f *sforce) { f.cache, f.cacheGen = nil, nil }},
	}
	var want SizedGrade
	for i, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			g := NewSized()
			g.force = newSforce(geomOf(p.Shape))
			m.set(g.force)
			gr, err := g.GradeContext(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if gr.Unfinished || gr.Uses[DynamicForcingChainsPlus] == 0 {
				t.Fatalf("grade %s %s, want finished with dynamic forcing chains (+)", gr.ER, gr.Hardest.Slug())
			}
			if i == 0 {
				want = gr
			} else if !reflect.DeepEqual(gr, want) {
				t.Errorf("grade %s %s, %d steps; dense cache: %s %s, %d steps", gr.ER, gr.Hardest.Slug(), len(gr.Steps), want.ER, want.Hardest.Slug(), len(want.Steps))
			}
		})
	}
}

// TestSizedDynamic25 grades a minimal 25x25 puzzle (dug without symmetry
// from rand.NewPCG(3, 25)) that needs dynamic forcing chains (+): the
// grade finishes, and the ancestor sets of a run, numbered in the order
// found, stay within a few pages where sets over every node would take
// 4 KB a node.
func TestSizedDynamic25(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a 25x25 puzzle through hundreds of forcing chains: seconds")
	}
	p := mustSizedGrid(t, "6..2.G....1.E8.L.D9.....FH.7.K.J...BOP....6.IAE..N.C.FJ..E....74.A.OP..GL......9.5AI...D..FE..B86..P....BMD4LO....A..G1N...2.......4I.H..LB1.D.....NC.J9PN351....A6CO....2..EKB5.LD...K.EIPF..O..7.G9.6M..K1C..3.6..N.2G8....PH.4F..H....P...9.7.3N.ED..8.M.E...8..1.FK.....HJ.IO..4....C.9O75J8I.D.M.K...P.CO....I..F......1.N.HD..9..HA13...D....956...4....B..J.EP.KA...N.7F...53..8.J..L.G...E.1....K65.H.9.....PI.NF.A..7.1..E.L.8.....6..LB58K4...M.IA..CP.1N.G7...D.32.C.PH.8..M.45.D.8..1..A.GLJ5.9.F..N7I.K...B2..FD..E...JN7.....LH.8....E....9...I.5.CK....P.O.4N7.1B.D..C..2F...M.G..3ME2...G.N..J.H...P5F..KN.L7..6.IH8.M4...3A....C")
	g := NewSized()
	gr, err := g.GradeContext(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if gr.Unfinished || gr.Uses[DynamicForcingChainsPlus] == 0 {
		t.Fatalf("grade %s %s, want finished with dynamic forcing chains (+)", gr.ER, gr.Hardest.Slug())
	}
	if peak := g.force.ancPeak; peak == 0 || peak > 1<<14 {
		t.Errorf("ancestor sets took up to %d words in a run, want 1 to %d", peak, 1<<14)
	}
	t.Logf("%s %s, %d steps; ancestor sets up to %d words a run", gr.ER, gr.Hardest.Slug(), len(gr.Steps), g.force.ancPeak)
}

// TestSizedForcingAncestorCap: a run whose ancestor sets pass their
// bound stops its producer call as the node budget does, so with no
// room at all the 16x16 puzzle ends unfinished after the steps the full
// grade made before its first forcing chain, the same way each time.
func TestSizedForcingAncestorCap(t *testing.T) {
	p := mustSizedGrid(t, ".2DC...F..49..5....G.8C....5...19F.4.7.B2...D6.C.......G...B.....3..........81.2E.4.6C.8...G...5.....3A...E..G.9B...E......4.....1.B......5..7..25..A...D.9.C...79....54C....E....369D...E.72.48F.....8.A.3.9...D487C.135....2.F.......7..2.1...6..2B.E..F...8.7")
	full, err := NewSized().GradeContext(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for cut < len(full.Steps) && full.Steps[cut].Technique < Nishio {
		cut++
	}
	gr := gradeTwiceWith(t, p, func(f *sforce) { f.ancMax = 0 })
	if !gr.Unfinished || len(gr.Steps) != cut || !reflect.DeepEqual(gr.Steps, full.Steps[:cut]) {
		t.Errorf("capped grade %s %s after %d steps, want unfinished after the %d steps before the first forcing chain", gr.ER, gr.Hardest.Slug(), len(gr.Steps), cut)
	}
}

// gradeTwiceWith grades p twice, each time with a fresh forcing chain
// engine that set has changed, and fails unless the two grades are equal:
// the engine's caps must keep grades deterministic.
func gradeTwiceWith(t *testing.T, p grid.Grid, set func(*sforce)) SizedGrade {
	t.Helper()
	var grades [2]SizedGrade
	for i := range grades {
		g := NewSized()
		g.force = newSforce(geomOf(p.Shape))
		set(g.force)
		var err error
		if grades[i], err = g.GradeContext(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(grades[0], grades[1]) {
		t.Fatalf("%s: grades with the same caps differ", p)
	}
	return grades[0]
}
