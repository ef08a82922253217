package store_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/store"
)

func TestEncodePath(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		want  string
	}{
		{"Empty", nil, ""},
		{"One", []string{"full-house"}, ",full-house,a"},
		{"Runs", strings.Fields("hidden-single-box hidden-single-box full-house bug-1 bug-1 bug-1 full-house"), ",hidden-single-box,full-house,bug-1,a2bc3b"},
		{"LongRun", slices.Repeat([]string{"x-wing"}, 12), ",x-wing,a12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := store.EncodePath(tt.steps)
			if err != nil || got != tt.want {
				t.Fatalf("EncodePath = %q, %v, want %q", got, err, tt.want)
			}
			back, err := store.PathSteps(got)
			if err != nil || !slices.Equal(back, tt.steps) {
				t.Errorf("PathSteps(%q) = %q, %v, want %q", got, back, err, tt.steps)
			}
		})
	}
}

func TestEncodePathRefuses(t *testing.T) {
	many := make([]string, 53)
	for i := range many {
		many[i] = "t" + strings.Repeat("x", i)
	}
	for name, steps := range map[string][]string{
		"Comma":        {"full-house,a"},
		"Space":        {"full house"},
		"Empty":        {""},
		"TooManyKinds": many,
	} {
		if got, err := store.EncodePath(steps); err == nil {
			t.Errorf("%s: EncodePath = %q, want an error", name, got)
		}
	}
	if _, err := store.EncodePath(many[:52]); err != nil {
		t.Errorf("EncodePath of 52 techniques: %v", err)
	}
}

// TestPathStepsListForm reads the form banks were written in before
// the runs form: slugs separated by spaces.
func TestPathStepsListForm(t *testing.T) {
	got, err := store.PathSteps("full-house  hidden-single-box full-house")
	if want := []string{"full-house", "hidden-single-box", "full-house"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("PathSteps = %q, %v, want %q", got, err, want)
	}
}

func TestPathStepsMalformed(t *testing.T) {
	for _, p := range []string{",full-house,b", ",full-house,a1", ",full-house,a0", ",full-house,a-", ",full-house,3", ",a", "full-house,a"} {
		if got, err := store.PathSteps(p); err == nil {
			t.Errorf("PathSteps(%q) = %q, want an error", p, got)
		}
	}
}

// TestPathRoundTrip: any sequence of slugs comes back from its runs form.
func TestPathRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kinds := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z0-9][a-z0-9-]{0,20}`), 1, 52, rapid.ID).Draw(t, "kinds")
		steps := rapid.SliceOfN(rapid.SampledFrom(kinds), 1, 200).Draw(t, "steps")
		enc, err := store.EncodePath(steps)
		if err != nil {
			t.Fatal(err)
		}
		back, err := store.PathSteps(enc)
		if err != nil || !slices.Equal(back, steps) {
			t.Fatalf("PathSteps(%q) = %q, %v, want %q", enc, back, err, steps)
		}
	})
}

// TestFamilyCountsFromPath: a family written with its counts in a runs
// path reads back with the same counts as one written with rows, and a
// family may not carry both.
func TestFamilyCountsFromPath(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	steps := strings.Fields("hidden-single-box hidden-single-box full-house x-wing full-house brute-force")
	path, err := store.EncodePath(steps)
	if err != nil {
		t.Fatal(err)
	}
	runs := fam(1, 3, 25, 1)
	runs.Techniques, runs.Path = nil, path
	list := fam(2, 3, 25, 1)
	list.Techniques = map[string]int{"hidden-single-box": 2, "full-house": 2, "x-wing": 1, "brute-force": 1}
	list.Path = strings.Join(steps[:5], " ")
	MustWrite(t, db, []store.NewFamily{runs, list})
	for _, nf := range []store.NewFamily{runs, list} {
		r, err := db.PuzzleByString(ctx, nf.Puzzles[0].Puzzle)
		if err != nil {
			t.Fatal(err)
		}
		f, err := db.Family(ctx, r.FamilyID)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(f.Techniques, list.Techniques) || f.Path != nf.Path {
			t.Errorf("family %d: Techniques %v, Path %q, want %v, %q", r.FamilyID, f.Techniques, f.Path, list.Techniques, nf.Path)
		}
	}
	// A list path written without counts: the family reads back with
	// none, as the technique filter and counts see it.
	bare := fam(4, 3, 25, 1)
	bare.Techniques, bare.Path = nil, strings.Join(steps[:5], " ")
	MustWrite(t, db, []store.NewFamily{bare})
	r, err := db.PuzzleByString(ctx, bare.Puzzles[0].Puzzle)
	if err != nil {
		t.Fatal(err)
	}
	f, err := db.Family(ctx, r.FamilyID)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Techniques) != 0 || f.Path != bare.Path {
		t.Errorf("list path without counts: Techniques %v, Path %q, want none, %q", f.Techniques, f.Path, bare.Path)
	}
	// The second filter is counted by SQL, the first from the counts.
	for _, filter := range []store.Filter{{Technique: "x-wing"}, {Technique: "x-wing", GivensMin: 1}} {
		if n, err := db.CountFamilies(ctx, filter); err != nil || n != 2 {
			t.Errorf("CountFamilies(%+v) = %d, %v; want 2, the families with counts", filter, n, err)
		}
	}
	both := fam(3, 3, 25, 1)
	both.Path = path
	if _, err := db.WriteBatch(ctx, []store.NewFamily{both}); err == nil {
		t.Error("WriteBatch of a family with counts and a runs path succeeded")
	}
}
