package grade

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestSizedForcingAgreesWithGrader grades a seeded sample of the rated
// puzzles whose SE rating is 7.5 to 9.0 with both graders and compares
// ER, EP, ED, hardest technique and level wherever the 9x9 grade's path
// uses no technique the sized grader lacks (the chains past dynamic
// forcing chains).
func TestSizedForcingAgreesWithGrader(t *testing.T) {
	f, err := os.Open("../../shared/data/rated/dev_se.txt")
	if err != nil {
		f, err = os.Open("../shared/data/rated/dev_se.txt")
	}
	if err != nil {
		t.Skip("no rated set:", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && len(fs[0]) == 81 && len(fs[1]) == 3 && fs[1] >= "7.5" && fs[1] <= "9.0" {
			lines = append(lines, fs[0])
		}
	}
	rng := rand.New(rand.NewPCG(26, 75))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	n := 120
	if testing.Short() {
		n = 24
	}
	lines = lines[:min(n, len(lines))]
	var g9 Grader
	g9.chains.maxLevel = 1
	var g SizedGrader
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
