package grade_test

import (
	"flag"
	"testing"

	"sudokubank/grade"
)

// TestSampleAccuracy grades the committed sample of the reference file
// and checks the accuracy targets. The part of the scale this
// package covers (reference ER below 6.5) must agree almost exactly; the
// targets over the whole sample apply once no puzzle rated below 9.0 by
// the reference is left unfinished (that is, once the chains land behind
// chainer.next; above 9.0 an unfinished puzzle is evil either way and
// ranks at the top).
func TestSampleAccuracy(t *testing.T) {
	ps := MustReadRated(t, "testdata/se_sample.txt")
	var all, low accuracy
	unfinishedBelow9 := 0
	var g grade.Grader
	// Nested forcing chains cost about a second a puzzle: the puzzles
	// that need them (reference ER 9.5 and up) are graded only with
	// -nested.
	nested := flag.Lookup("nested").Value.(flag.Getter).Get().(bool)
	skipped := 0
	for _, rp := range ps {
		if rp.er >= grade.NestedForcingChains2.BaseRating() && !nested {
			skipped++
			continue
		}
		gr, err := g.Grade(rp.puzzle)
		if err != nil {
			t.Fatalf("%s: %v", rp.puzzle, err)
		}
		all.add(rp, gr)
		if gr.Unfinished && rp.er < 90 {
			unfinishedBelow9++
		}
		if rp.er < 65 {
			low.add(rp, gr)
			if gr.ER != rp.er {
				t.Logf("%s %s: ER %s, reference %s", rp.puzzle, rp.source, gr.ER, rp.er)
			}
		} else if !gr.Unfinished && gr.ER < 65 {
			t.Errorf("%s %s: ER %s, but the reference needs chains (%s)", rp.puzzle, rp.source, gr.ER, rp.er)
		}
	}
	t.Logf("reference ER below 6.5: %v", &low)
	t.Logf("whole sample:           %v (%d rated 9.5 and up skipped without -nested)", &all, skipped)
	check := func(name string, got, want float64) {
		t.Helper()
		if got < want {
			t.Errorf("%s = %.1f%%, want >= %.1f%%", name, got, want)
		}
	}
	check("below 6.5: level agreement", pct(low.levelOK, low.n), 99)
	check("below 6.5: ER exact", pct(low.exact, low.below9), 98)
	check("below 6.5: EP exact", pct(low.epOK, low.n), 98)
	check("below 6.5: ED exact", pct(low.edOK, low.n), 98)
	if unfinishedBelow9 > 0 {
		t.Logf("%d puzzles rated below 9.0 unfinished: whole-sample targets not checked until the chains land", unfinishedBelow9)
		return
	}
	check("level agreement", pct(all.levelOK, all.n), 95)
	check("ER exact below 9.0", pct(all.exact, all.below9), 85)
	check("ER within 0.2 below 9.0", pct(all.near, all.below9), 95)
	if r := spearman(all.ref, all.got); r < 0.95 {
		t.Errorf("Spearman ER = %.3f, want >= 0.95", r)
	}
}
