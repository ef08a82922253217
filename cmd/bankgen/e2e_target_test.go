package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// rows returns the bank's puzzle rows, failing the test if there are not
// want of them.
func rows(tb testing.TB, path string, want int) []store.Row {
	tb.Helper()
	rs := bankRows(tb, path)
	if len(rs) != want {
		tb.Fatalf("%d puzzles, want %d", len(rs), want)
	}
	return rs
}

// TestRatingTarget checks that every family a -rating run stores rates in
// the range, its variants included.
func TestRatingTarget(t *testing.T) {
	dir := t.TempDir()
	r := bankgen(t, dir, "-db", "b.db", "-count", "10", "-rating", "4.0-6.9", "-variants", "1", "-seed", "5", "-quiet")
	mustSucceed(t, r)
	for _, row := range rows(t, filepath.Join(dir, "b.db"), 20) {
		if row.ER < 40 || row.ER > 69 {
			t.Errorf("puzzle %d: ER %d tenths, want 4.0-6.9", row.ID, row.ER)
		}
	}
	if !strings.Contains(r.stdout, " off target") {
		t.Errorf("summary does not count the families off target:\n%s", r.stdout)
	}
}

// TestTechniqueTarget checks that -technique keeps only families whose
// hardest step is the technique, and -technique-any only those whose solve
// uses it.
func TestTechniqueTarget(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "hard.db", "-count", "5", "-technique", "x-wing", "-seed", "1", "-quiet"))
	for _, row := range rows(t, filepath.Join(dir, "hard.db"), 5) {
		if row.Hardest != "x-wing" {
			t.Errorf("puzzle %d: hardest step %s, want x-wing", row.ID, row.Hardest)
		}
	}
	mustSucceed(t, bankgen(t, dir, "-db", "any.db", "-count", "8", "-technique-any", "x-wing,swordfish", "-seed", "1", "-quiet"))
	db := MustOpen(t, filepath.Join(dir, "any.db"))
	n := 0
	for _, slug := range []string{"x-wing", "swordfish"} {
		m, err := db.CountFamilies(context.Background(), store.Filter{Technique: slug})
		if err != nil {
			t.Fatal(err)
		}
		n += int(m)
	}
	if all, err := db.CountFamilies(context.Background(), store.Filter{}); err != nil || all != 8 || n < 8 {
		t.Errorf("%d families (err %v), %d uses of x-wing or swordfish among them; want 8 families, each using one", all, err, n)
	}
}

// TestTargetWithLevelGivensSymmetry checks that a target combines with
// -level, -givens and -symmetry: every stored puzzle meets all four.
func TestTargetWithLevelGivensSymmetry(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "5", "-level", "difficult", "-rating", "5.0-6.9",
		"-givens", "24-28", "-symmetry", "rot180", "-variants", "2", "-seed", "2", "-quiet"))
	for _, row := range rows(t, filepath.Join(dir, "b.db"), 15) {
		g, err := solve.Parse(row.Puzzle)
		if err != nil {
			t.Fatal(err)
		}
		if row.ER < 50 || row.ER > 69 || row.Level != 4 || g.Givens() < 24 || g.Givens() > 28 || row.Symmetry != "rot180" {
			t.Errorf("puzzle %d: ER %d, level %d, %d givens, symmetry %s; want 5.0-6.9, difficult, 24-28, rot180",
				row.ID, row.ER, row.Level, g.Givens(), row.Symmetry)
		}
	}
}

// TestTargetUnreachable checks that a target no family meets ends the
// run with exit status 1 and a message naming it, after the give-up
// budget rather than never: of searches, and with -search=false of digs.
func TestTargetUnreachable(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		tries int
	}{
		{"Search", nil, pipeline.GiveUpSearchItems},
		{"Dig", []string{"-search=false"}, pipeline.GiveUpItems},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := bankgen(t, dir, append([]string{"-db", "b.db", "-count", "5", "-rating", "11.5-", "-givens", "40-45", "-seed", "1", "-quiet"}, tt.args...)...)
			if r.code != 1 {
				t.Errorf("exit code %d, want 1; stderr:\n%s", r.code, r.stderr)
			}
			if want := fmt.Sprintf("no family rated 11.5 or more with 40-45 givens in %d tries", tt.tries); !strings.Contains(r.stderr, want) {
				t.Errorf("stderr %q does not say %q", r.stderr, want)
			}
		})
	}
}

// TestTargetImpossible checks that a target its levels or technique rule
// out ends the run at once with exit status 1 and a message that says
// why, rather than after the give-up budget of searches.
func TestTargetImpossible(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"Technique", []string{"-technique", "x-wing", "-rating", "9.0-"}, "impossible target: families rated 9.0 or more, whose hardest step is x-wing, would rate 9.0 or more and 3.2 or less"},
		{"Level", []string{"-level", "easy", "-rating", "8.0-"}, "impossible target: easy families rated 8.0 or more would rate 8.0 or more and 2.3 or less"},
		{"AboveScale", []string{"-rating", "12.1-"}, "impossible target: families rated 12.1 or more would rate 12.1 or more and 12.0 or less"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := bankgen(t, t.TempDir(), append([]string{"-db", "b.db", "-count", "5", "-seed", "1", "-quiet"}, tt.args...)...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit code %d, stderr %q; want 1 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestQuotaAboveScaleImpossible checks that a -quota of a rating band
// above the top of the scale ends the run at once too.
func TestQuotaAboveScaleImpossible(t *testing.T) {
	r := bankgen(t, t.TempDir(), "-db", "b.db", "-quota", "13.0-=1", "-seed", "1", "-quiet")
	if want := "impossible target: families rated 13.0 or more would rate 13.0 or more and 12.0 or less"; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit code %d, stderr %q; want 1 and %q", r.code, r.stderr, want)
	}
}

// TestTargetSameSeedSameFamilies checks that a targeted run makes the
// same families with one worker as with two.
func TestTargetSameSeedSameFamilies(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-count", "12", "-rating", "2.5-4.5", "-technique-any", "pointing,claiming", "-seed", "9", "-quiet"}
	mustSucceed(t, bankgen(t, dir, append([]string{"-db", "w1.db", "-workers", "1"}, args...)...))
	mustSucceed(t, bankgen(t, dir, append([]string{"-db", "w2.db", "-workers", "2"}, args...)...))
	w1, w2 := graded(t, filepath.Join(dir, "w1.db")), graded(t, filepath.Join(dir, "w2.db"))
	if len(w1) != 12 || !slices.Equal(w1, w2) {
		t.Errorf("-workers 1 made %d puzzles, -workers 2 other ones:\n%q\n%q", len(w1), w1, w2)
	}
}

// TestQuotaOfTargets checks that -quota takes rating bands and
// techniques: a run tops the bank up to each, the same command run again
// adds nothing, and a higher quota adds only what it lacks.
func TestQuotaOfTargets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.db")
	count := func(f store.Filter) int {
		n, err := MustOpen(t, path).CountFamilies(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	check := func(band, pointing, all int) {
		t.Helper()
		if got := [3]int{count(store.Filter{RatingMin: 40, RatingMax: 69}), count(store.Filter{Hardest: "pointing"}), count(store.Filter{})}; got != [3]int{band, pointing, all} {
			t.Errorf("4.0-6.9, pointing, all: %d, %d, %d families; want %d, %d, %d", got[0], got[1], got[2], band, pointing, all)
		}
	}
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-quota", "4.0-6.9=6,pointing=4", "-seed", "3", "-quiet"))
	check(6, 4, 10)
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-quota", "4.0-6.9=6,pointing=4", "-seed", "3", "-quiet"))
	check(6, 4, 10)
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-quota", "4.0-6.9=6,pointing=6", "-seed", "4", "-quiet"))
	check(6, 6, 12)
}

// TestSearchSameSeedSameFamilies checks a searching run (a technique
// target searches): every family it stores meets the target and keeps
// the run's symmetry in each puzzle, one worker makes the same families
// as two, and -search=false makes others, by fresh digs alone.
func TestSearchSameSeedSameFamilies(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-count", "20", "-technique", "x-wing", "-symmetry", "rot180", "-variants", "1", "-seed", "6", "-quiet"}
	mustSucceed(t, bankgen(t, dir, append([]string{"-db", "w1.db", "-workers", "1"}, args...)...))
	mustSucceed(t, bankgen(t, dir, append([]string{"-db", "w2.db", "-workers", "2"}, args...)...))
	mustSucceed(t, bankgen(t, dir, append([]string{"-db", "dig.db", "-workers", "1", "-search=false"}, args...)...))
	for _, row := range rows(t, filepath.Join(dir, "w1.db"), 40) {
		g, err := solve.Parse(row.Puzzle)
		if err != nil {
			t.Fatal(err)
		}
		if row.Hardest != "x-wing" || row.ER != 32 || !gen.Rot180.Holds(g) {
			t.Errorf("puzzle %d: hardest %s, ER %d, symmetry %s; want x-wing, 32, rot180", row.ID, row.Hardest, row.ER, gen.DetectSymmetry(g))
		}
	}
	w1, w2, dig := graded(t, filepath.Join(dir, "w1.db")), graded(t, filepath.Join(dir, "w2.db")), graded(t, filepath.Join(dir, "dig.db"))
	if !slices.Equal(w1, w2) {
		t.Errorf("-workers 1 made %d puzzles, -workers 2 other ones:\n%q\n%q", len(w1), w1, w2)
	}
	if len(dig) != 40 || slices.Equal(w1, dig) {
		t.Errorf("-search=false made %d puzzles, the same as the search", len(dig))
	}
}

// TestOverlappingKeyQuotaRuns starts two runs with a quota of a rating
// band and a technique on one bank at once, as overlapping cron runs
// would: each counts what the bank lacks before the other has written,
// and together they must still stop exactly on each quota.
func TestOverlappingKeyQuotaRuns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.db")
	// The bank exists first, so that both runs find it: the race under
	// test is in the writing, not the creating.
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "0", "-quiet"))
	args := func(seed string) []string {
		return []string{"-db", "b.db", "-quota", "4.0-6.9=150,pointing=100", "-seed", seed, "-workers", "1", "-quiet"}
	}
	outs := runTogether(t, dir, args("1"), args("2"))
	db := MustOpen(t, path)
	for _, k := range []struct {
		name string
		f    store.Filter
		want int64
	}{{"4.0-6.9", store.Filter{RatingMin: 40, RatingMax: 69}, 150}, {"pointing", store.Filter{Hardest: "pointing"}, 100}} {
		n, err := db.CountFamilies(context.Background(), k.f)
		if err != nil {
			t.Fatal(err)
		}
		if n != k.want {
			t.Errorf("%s: the bank holds %d families, want the quota %d\n%s\n%s", k.name, n, k.want, outs[0], outs[1])
		}
	}
}

// TestSearchFromBankSameFamilies checks a searching run on a bank that
// holds families of its target: it walks from them (the log says so),
// every family it stores meets the target, with the run's symmetry in
// each puzzle where it has one, and one worker makes the same families
// as two from the same bank. A -quota of a technique walks from the
// bank's families of it as well, and so does a run of another size.
func TestSearchFromBankSameFamilies(t *testing.T) {
	for _, tt := range []struct {
		name string
		base []string // the run that makes the bank
		args []string
		sym  gen.Symmetry // of every puzzle; NoSymmetry for any
		log  string
		had  int    // families in the bank
		tech string // the hardest technique of every family the run makes
	}{
		{"Technique", []string{"-count", "5", "-technique", "x-wing"}, []string{"-count", "8", "-technique", "x-wing"}, gen.NoSymmetry,
			`msg="searching from the bank's hardest families too" families=5`, 5, "x-wing"},
		{"Rot180", []string{"-count", "5", "-technique", "x-wing", "-symmetry", "rot180"}, []string{"-count", "8", "-technique", "x-wing", "-symmetry", "rot180"}, gen.Rot180,
			`msg="searching from the bank's hardest families too" families=5`, 5, "x-wing"},
		// Families without rot180 givens are no start points for it.
		{"Rot180FromNone", []string{"-count", "5", "-technique", "x-wing"}, []string{"-count", "8", "-technique", "x-wing", "-symmetry", "rot180"}, gen.Rot180, "", 5, "x-wing"},
		{"Quota", []string{"-count", "5", "-technique", "x-wing"}, []string{"-quota", "x-wing=13"}, gen.NoSymmetry,
			`msg="searching from the bank's hardest families too" quota=x-wing families=5`, 5, "x-wing"},
		// About one 6x6 family in 40 has an x-chain as its hardest step.
		{"Size6", []string{"-size", "6", "-count", "300"}, []string{"-size", "6", "-count", "8", "-technique", "x-chain"}, gen.NoSymmetry,
			`msg="searching from the bank's hardest families too" families=7`, 300, "x-chain"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			mustSucceed(t, bankgen(t, dir, append([]string{"-db", "base.db", "-seed", "1", "-quiet"}, tt.base...)...))
			base, err := os.ReadFile(filepath.Join(dir, "base.db"))
			if err != nil {
				t.Fatal(err)
			}
			args := append([]string{"-seed", "2", "-quiet"}, tt.args...)
			for _, w := range []string{"1", "2"} {
				if err := os.WriteFile(filepath.Join(dir, "w"+w+".db"), base, 0o644); err != nil {
					t.Fatal(err)
				}
				r := bankgen(t, dir, append([]string{"-db", "w" + w + ".db", "-workers", w}, args...)...)
				mustSucceed(t, r)
				if said := strings.Contains(r.stderr, "searching from the bank's hardest families too"); said != (tt.log != "") || !strings.Contains(r.stderr, tt.log) {
					t.Errorf("-workers %s: the log does not say %q:\n%s", w, tt.log, r.stderr)
				}
			}
			w1, w2 := graded(t, filepath.Join(dir, "w1.db")), graded(t, filepath.Join(dir, "w2.db"))
			if len(w1) != tt.had+8 || !slices.Equal(w1, w2) {
				t.Errorf("-workers 1 made %d puzzles, -workers 2 other ones:\n%q\n%q", len(w1), w1, w2)
			}
			for _, row := range rows(t, filepath.Join(dir, "w1.db"), tt.had+8)[tt.had:] {
				g, err := grid.Parse(row.Puzzle)
				if err != nil {
					t.Fatal(err)
				}
				if row.Hardest != tt.tech || tt.sym != gen.NoSymmetry && !tt.sym.HoldsSized(g) {
					t.Errorf("puzzle %d: hardest %s, symmetry %s; want %s, %s", row.ID, row.Hardest, gen.DetectSymmetrySized(g), tt.tech, tt.sym)
				}
			}
		})
	}
}
