package main

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
)

// sizeRuns are the runs TestSizes makes: a few families of each size, with
// variants and a symmetry, small enough for a test.
var sizeRuns = []struct {
	n     int
	count string
	extra []string
}{
	{4, "40", nil},
	{6, "60", nil},
	{8, "40", nil},
	{12, "12", nil},
	{16, "4", []string{"-level", "1,2"}},
}

// TestSizes builds a bank of every size but 25 and checks every stored
// row: one solution that agrees with the row, the symmetry asked, the
// size, and a grade equal to grading the family's canonical form again.
func TestSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds banks of five sizes")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "sizes.db")
	for _, r := range sizeRuns {
		args := append([]string{"-db", db, "-size", strconv.Itoa(r.n), "-count", r.count, "-variants", "2",
			"-symmetry", "rot180", "-seed", "5", "-quiet"}, r.extra...)
		if res := bankgen(t, dir, args...); res.code != 0 {
			t.Fatalf("bankgen %q: exit %d\n%s%s", args, res.code, res.stdout, res.stderr)
		}
	}
	bank := MustOpen(t, db)
	ctx := context.Background()
	var solver solve.Sized
	var grader grade.SizedGrader
	perSize := map[int]int{}
	families := map[int64]bool{}
	for _, r := range bankRows(t, db) {
		p, err := grid.Parse(r.Puzzle)
		if err != nil {
			t.Fatalf("puzzle %d: %v", r.ID, err)
		}
		if r.Size != p.Shape.N {
			t.Errorf("puzzle %d: size %d, but %d cells", r.ID, r.Size, len(r.Puzzle))
		}
		perSize[r.Size]++
		if n := solver.Count(p, 2); n != 1 {
			t.Errorf("puzzle %d (%s): %d solutions", r.ID, r.Puzzle, n)
			continue
		}
		if sol, _ := solver.Solution(p); sol.String() != r.Solution {
			t.Errorf("puzzle %d: solution %s, stored %s", r.ID, sol, r.Solution)
		}
		// A rot180 pattern may have more symmetry (rot90 holds on some
		// square grids): the row names what its givens have.
		if sym, err := gen.ParseSymmetry(r.Symmetry); err != nil || sym != gen.DetectSymmetrySized(p) || !gen.Rot180.HoldsSized(p) {
			t.Errorf("puzzle %d: symmetry %q, detected %v, rot180 holds: %v", r.ID, r.Symmetry, gen.DetectSymmetrySized(p), gen.Rot180.HoldsSized(p))
		}
		if r.Givens != p.Givens() {
			t.Errorf("puzzle %d: %d givens stored, %d in the grid", r.ID, r.Givens, p.Givens())
		}
		if families[r.FamilyID] {
			continue
		}
		families[r.FamilyID] = true
		f, err := bank.Family(ctx, r.FamilyID)
		if err != nil {
			t.Fatal(err)
		}
		canon, _ := gen.SizedCanon(p)
		if canon.String() != f.Canon {
			t.Errorf("puzzle %d: canonical form %s, family's %s", r.ID, canon, f.Canon)
		}
		gr, err := grader.GradeContext(ctx, canon)
		if err != nil {
			t.Fatal(err)
		}
		if int(gr.ER) != f.ER || int(gr.Level) != f.Level || gr.Hardest.Slug() != f.Hardest {
			t.Errorf("family %d: stored ER %d level %d %s, graded again %d %d %s", f.ID, f.ER, f.Level, f.Hardest, gr.ER, gr.Level, gr.Hardest.Slug())
		}
	}
	for _, r := range sizeRuns {
		c, _ := strconv.Atoi(r.count)
		if perSize[r.n] != 3*c {
			t.Errorf("%dx%d: %d puzzles stored, want %d families of 3", r.n, r.n, perSize[r.n], c)
		}
	}
	// The same run again makes the same families first: each is a
	// duplicate, and the new ones are others.
	res := bankgen(t, dir, "-db", db, "-size", "6", "-count", "60", "-variants", "2", "-symmetry", "rot180", "-seed", "5", "-quiet")
	if res.code != 0 || !strings.Contains(res.stdout, "skipped: 60 duplicates") {
		t.Errorf("the same 6x6 run again: exit %d, want 60 duplicates first:\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestSizesDedupTransformed imports transformed copies of stored puzzles
// of every size: each joins its family as a puzzle, none makes a family.
func TestSizesDedupTransformed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a bank")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "dedup.db")
	for _, n := range []string{"4", "6", "8", "12"} {
		if res := bankgen(t, dir, "-db", db, "-size", n, "-count", "5", "-seed", "9", "-quiet"); res.code != 0 {
			t.Fatalf("bankgen -size %s: exit %d\n%s%s", n, res.code, res.stdout, res.stderr)
		}
	}
	rows := bankRows(t, db)
	rng := rand.New(rand.NewPCG(1, 2))
	var lines []string
	for _, r := range rows {
		p, err := grid.Parse(r.Puzzle)
		if err != nil {
			t.Fatal(err)
		}
		for {
			q := grid.RandomTransform(p.Shape, rng).Apply(p)
			if !q.Equal(p) {
				lines = append(lines, q.String())
				break
			}
		}
	}
	file := filepath.Join(dir, "copies.txt")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := bankgen(t, dir, "import", "-db", db, "-quiet", file)
	if res.code != 0 {
		t.Fatalf("import: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	after := bankRows(t, db)
	if len(after) != 2*len(rows) {
		t.Errorf("%d puzzles after importing %d copies of %d, want %d", len(after), len(lines), len(rows), 2*len(rows))
	}
	fams := map[int64]bool{}
	for _, r := range after {
		fams[r.FamilyID] = true
	}
	if len(fams) != 20 {
		t.Errorf("%d families after importing copies of 20", len(fams))
	}
}

// TestSizesDeterministic runs the same 8x8 job twice with different
// workers: the same seed gives the same families.
func TestSizesDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two banks")
	}
	dir := t.TempDir()
	var forms [2][]string
	for i, w := range []string{"1", "2"} {
		db := filepath.Join(dir, "det"+w+".db")
		if res := bankgen(t, dir, "-db", db, "-size", "8", "-count", "30", "-variants", "1", "-seed", "11", "-workers", w, "-quiet"); res.code != 0 {
			t.Fatalf("bankgen: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
		for _, r := range bankRows(t, db) {
			forms[i] = append(forms[i], r.Puzzle+" "+strconv.Itoa(r.ER))
		}
		slices.Sort(forms[i])
	}
	if !slices.Equal(forms[0], forms[1]) {
		t.Errorf("one seed, two banks: %d and %d puzzles differ", len(forms[0]), len(forms[1]))
	}
}

// TestSizesExhausted asks for more 4x4 puzzles of a few givens than exist:
// the run stores what there is, says the space is exhausted and succeeds;
// running it again adds nothing.
func TestSizesExhausted(t *testing.T) {
	if testing.Short() {
		t.Skip("exhausts a space of puzzles")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "four.db")
	res := bankgen(t, dir, "-db", db, "-size", "4", "-givens", "4-5", "-count", "1000000", "-seed", "3", "-quiet")
	if res.code != 0 || !strings.Contains(res.stdout, "the space of 4x4 puzzles is exhausted") {
		t.Fatalf("exit %d, want 0 and the space exhausted:\n%s%s", res.code, res.stdout, res.stderr)
	}
	n := len(bankRows(t, db))
	if n == 0 || n > 1000 {
		t.Fatalf("%d 4x4 puzzles of 4-5 givens stored", n)
	}
	res = bankgen(t, dir, "-db", db, "-size", "4", "-givens", "4-5", "-quota", "extremely-easy=5000", "-seed", "4", "-quiet")
	if res.code != 0 || !strings.Contains(res.stdout, "exhausted") || len(bankRows(t, db)) != n {
		t.Errorf("a quota beyond the space: exit %d, %d puzzles (had %d):\n%s%s", res.code, len(bankRows(t, db)), n, res.stdout, res.stderr)
	}
}

// TestSizesImportErrors imports 6x6 lines: a puzzle, one with two
// solutions and one with a bad character, each bad line named.
func TestSizesImportErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "six.txt")
	lines := "56.....42...1...3..2...5...34.....52\n56......2...1...3..2...5...34.....52\n56.....42...1...3..2...5...34.....5Z\n"
	if err := os.WriteFile(file, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	res := bankgen(t, dir, "import", "-db", filepath.Join(dir, "six.db"), file)
	for _, want := range []string{"1 new family,", "six.txt:2: more than one solution", "six.txt:3: r6c6: 'Z' is not a value or an empty cell of a 6x6 grid"} {
		if !strings.Contains(res.stdout+res.stderr, want) {
			t.Errorf("import output lacks %q:\n%s%s", want, res.stdout, res.stderr)
		}
	}
	rows := bankRows(t, filepath.Join(dir, "six.db"))
	if len(rows) != 1 || rows[0].Size != 6 || rows[0].Puzzle != lines[:36] {
		t.Errorf("stored %+v, want the one 6x6 puzzle", rows)
	}
}

// TestSizesShardsMerge builds a 6x6 job in two shards and merges them:
// the same puzzles as the single run, sizes and counts kept.
func TestSizesShardsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four banks")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if res := bankgen(t, dir, args...); res.code != 0 {
			t.Fatalf("bankgen %q: exit %d\n%s%s", args, res.code, res.stdout, res.stderr)
		}
	}
	run("-db", "one.db", "-size", "6", "-count", "40", "-variants", "1", "-seed", "13", "-quiet")
	run("-db", "s0.db", "-size", "6", "-count", "40", "-variants", "1", "-seed", "13", "-shard", "0/2", "-quiet")
	run("-db", "s1.db", "-size", "6", "-count", "40", "-variants", "1", "-seed", "13", "-shard", "1/2", "-quiet")
	run("merge", "-db", "merged.db", "s1.db", "s0.db")
	strs := func(db string) []string {
		var out []string
		for _, r := range bankRows(t, filepath.Join(dir, db)) {
			out = append(out, strconv.Itoa(r.Size)+" "+r.Puzzle+" "+strconv.Itoa(r.ER))
		}
		slices.Sort(out)
		return out
	}
	one, merged := strs("one.db"), strs("merged.db")
	if len(one) != 80 || !slices.Equal(one, merged) {
		t.Errorf("single run %d puzzles, merged shards %d, equal: %v", len(one), len(merged), slices.Equal(one, merged))
	}
	run("merge", "-db", "merged.db", "s0.db")
	if again := strs("merged.db"); !slices.Equal(again, merged) {
		t.Errorf("merging a shard again changed the bank: %d puzzles", len(again))
	}
}
