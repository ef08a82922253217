package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/gen"
)

// TestShowIsomorph shows a puzzle the bank holds only as an isomorph: it
// is shown as given, with its family's grade, the stored puzzle and the
// transform between them, and its own hint path. A puzzle of no stored
// family is still an error.
func TestShowIsomorph(t *testing.T) {
	db := MustBank(t)
	_, iso := MustIsomorph(t)
	out := mustRun(t, "show", "-db", db, iso.String())
	for _, want := range []string{
		"puzzle not stored as given: an isomorph of puzzle ",
		"\n" + iso.String() + "\n",
		"\nstored as ",
		"\ntransform ",
		"\nhint path (this puzzle's solve",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show of an isomorph does not say %q:\n%s", want, out)
		}
	}
	var storedText, transform string
	for _, line := range strings.Split(out, "\n") {
		if s, ok := strings.CutPrefix(line, "stored as "); ok {
			storedText = s
		}
		if s, ok := strings.CutPrefix(line, "transform "); ok {
			transform, _, _ = strings.Cut(s, " ")
		}
	}
	tr, err := gen.ParseTransform(transform)
	if err != nil {
		t.Fatalf("transform %q: %v", transform, err)
	}
	if got := tr.Apply(mustGrid(t, storedText)); got != iso {
		t.Errorf("transform %s takes the stored puzzle %s to %s, want %s", transform, storedText, got, iso)
	}
	golden(t, "showisomorph.golden", []byte(stable(out, filepath.Dir(db))))
	r := run(t, "show", "-db", db, notInFixture)
	if r.code != 1 || !strings.Contains(r.err.Error(), "nor any isomorph") {
		t.Errorf("show of no family: exit %d, %v; want 1, not in the bank", r.code, r.err)
	}
}
