package store

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestTechniqueFilterIsWhole: a technique filter matches whole slugs.
// Real slugs hold others (hidden-single in hidden-single-box, hidden-pair
// in direct-hidden-pair, dynamic-forcing-chains in
// nested-dynamic-forcing-chains-plus): a family that uses only the longer
// one must not match the shorter, in either path form, by the technique
// plans or the plain ones, in queries and counts.
func TestTechniqueFilterIsWhole(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	uses := [][]string{
		{"hidden-single"}, {"hidden-single-box"},
		{"hidden-pair"}, {"direct-hidden-pair"},
		{"dynamic-forcing-chains"}, {"nested-dynamic-forcing-chains-plus"},
		{"hidden-single-box", "hidden-single"},
	}
	// Each technique list twice: family 2i in the runs form, 2i+1 in the
	// list form with its counts in family_techniques.
	var batch []NewFamily
	family := map[string]int{} // puzzle -> family
	for n := range 2 * len(uses) {
		steps := append([]string{"full-house"}, uses[n/2]...)
		f := NewFamily{Family: Family{
			Canon: techGrid(n), ER: 30, Level: 1 + n%5, Score: 1, Givens: 25, MinRowCol: 1,
			Hardest: steps[len(steps)-1], Symmetry: "none", Source: "gen",
		}}
		if n%2 == 0 {
			var err error
			if f.Path, err = EncodePath(steps); err != nil {
				t.Fatal(err)
			}
		} else {
			f.Path = strings.Join(steps, " ")
			f.Techniques = map[string]int{}
			for _, s := range steps {
				f.Techniques[s]++
			}
		}
		for v := range 2 {
			p := techGrid(100_000 + 10*n + v)
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: p, Solution: p})
			family[p] = n
		}
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T) {
		// forcing-chains is in two slugs of the bank and no family's.
		for _, slug := range []string{"hidden-single", "hidden-pair", "dynamic-forcing-chains", "forcing-chains", "hidden-single-box"} {
			var want []int
			for n := range batch {
				if slices.Contains(uses[n/2], slug) {
					want = append(want, n)
				}
			}
			// A bound on the givens keeps the counts off the technique
			// counts, which hold the answer to a technique alone.
			for _, f := range []Filter{{Technique: slug}, {Technique: slug, GivensMin: 20}} {
				for _, o := range []QueryOptions{{Order: OrderID}, {Order: OrderRandom, Limit: 1000}} {
					fams := map[int]int{}
					if err := query(ctx, db.db, f, o, func(r Row) error {
						fams[family[r.Puzzle]]++
						return nil
					}); err != nil {
						t.Fatal(err)
					}
					if got := slices.Sorted(maps.Keys(fams)); !slices.Equal(got, want) {
						t.Errorf("technique %s, givens >= %d, %+v: families %v, want %v", slug, f.GivensMin, o, got, want)
					}
				}
				for _, families := range []bool{false, true} {
					n := int64(2 * len(want))
					if families {
						n = int64(len(want))
					}
					if got, err := db.count(ctx, f, families); err != nil || got != n {
						t.Errorf("technique %s, givens >= %d: count(families %v) = %d, %v; want %d", slug, f.GivensMin, families, got, err, n)
					}
				}
			}
		}
	}
	t.Run("TechniquePlans", check)
	t.Run("PlainPlans", func(t *testing.T) { withoutTechniquePlans(func() { check(t) }) })
}
