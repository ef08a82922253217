package store_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"sudokubank/store"
)

// levelSpread is what levelShares found over many seeds: the chi-square
// of every seed's level counts against the shares of the available
// puzzles, its degrees of freedom, and the samples wholly of one level.
type levelSpread struct {
	chi2    float64
	df      int
	oneOnly int
}

// levelShares samples n puzzles for each of seeds 0..seeds-1 with f and
// compares each sample's level counts with want, the number of puzzles
// available at each level (indexed by level). A level whose expected
// count in a sample is under 2 is pooled with the others that small, and
// left out if the pool's is too.
func levelShares(tb testing.TB, db *store.DB, f store.Filter, want map[int]int, n int, seeds uint64) levelSpread {
	tb.Helper()
	total := 0
	for _, c := range want {
		total += c
	}
	var s levelSpread
	for seed := range seeds {
		got := map[int]int{}
		err := db.Query(context.Background(), f, store.QueryOptions{Order: store.OrderRandom, Limit: n, Seed: seed, OnePerFamily: true}, func(r store.Row) error {
			if _, ok := want[r.Level]; !ok {
				return fmt.Errorf("seed %d: puzzle %d has level %d, not one of %v", seed, r.ID, r.Level, want)
			}
			got[r.Level]++
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		k := min(n, total)
		sum := 0
		for _, c := range got {
			sum += c
		}
		if sum != k {
			tb.Fatalf("seed %d: %d puzzles, want %d", seed, sum, k)
		}
		for _, c := range got {
			if c == k && len(want) > 1 {
				s.oneOnly++
			}
		}
		var poolO, poolE float64
		cells := 0
		for level, avail := range want {
			e := float64(k) * float64(avail) / float64(total)
			o := float64(got[level])
			if e < 2 {
				poolO, poolE = poolO+o, poolE+e
				continue
			}
			s.chi2 += (o - e) * (o - e) / e
			cells++
		}
		if poolE >= 2 {
			s.chi2 += (poolO - poolE) * (poolO - poolE) / poolE
			cells++
		}
		s.df += max(cells-1, 0)
	}
	return s
}

// check fails tb if the spread is more than chance allows: a chi-square
// past its mean by ten standard deviations, which a uniform sample (whose
// counts vary less than the binomial ones the statistic assumes) does not
// reach once in a billion tries.
func (s levelSpread) check(tb testing.TB, what string) {
	tb.Helper()
	if limit := float64(s.df) + 10*math.Sqrt(2*float64(s.df)) + 10; s.chi2 > limit {
		tb.Errorf("%s: chi-square %.0f over %d degrees of freedom (limit %.0f); %d samples of one level only",
			what, s.chi2, s.df, limit, s.oneOnly)
	}
}

// TestRandomSampleAfterPack reproduces the skew of issue 23: a pack
// reserved from one level used to take a run of its sort keys, and every
// later sample over several levels whose start fell in that run drew only
// from the other levels. Over 40 seeds the level counts must match what
// is available.
func TestRandomSampleAfterPack(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	const easy, evil = 3000, 600
	var batch []store.NewFamily
	for i := range easy + evil {
		level := 1
		if i >= easy {
			level = 5
		}
		batch = append(batch, fam(i, level, 25, 1))
	}
	MustWrite(t, db, batch)
	const packed = 1500
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "acme-1", Client: "acme"}, store.Filter{Levels: []int{1}},
		store.QueryOptions{Order: store.OrderRandom, Seed: 7}, packed); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		filter store.Filter
		want   map[int]int
	}{
		// export -no-record: families reserved to nobody.
		{"Unreserved", store.Filter{Levels: []int{1, 5}, Unreserved: true}, map[int]int{1: easy - packed, 5: evil}},
		// list -fresh: families in no pack.
		{"Fresh", store.Filter{Levels: []int{1, 5}, Fresh: true}, map[int]int{1: easy - packed, 5: evil}},
		// export -client bob: not reserved to acme.
		{"OtherClient", store.Filter{Levels: []int{1, 5}, NotForClient: "bob"}, map[int]int{1: easy - packed, 5: evil}},
		// export -client acme: acme's own pack is not given again.
		{"SameClient", store.Filter{Levels: []int{1, 5}, NotForClient: "acme"}, map[int]int{1: easy - packed, 5: evil}},
		// Every level: the empty ones hold nothing.
		{"AllLevels", store.Filter{Fresh: true}, map[int]int{1: easy - packed, 5: evil}},
		// Nothing reserved is left out: the pack changes nothing.
		{"Everything", store.Filter{Levels: []int{1, 5}}, map[int]int{1: easy, 5: evil}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			levelShares(t, db, tt.filter, tt.want, 20, 40).check(t, tt.name)
		})
	}
}
