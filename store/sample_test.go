package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/store"
)

// tester is what the helpers here need of a testing.TB or a rapid.T.
type tester interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// levelSpread is what levelShares found over many seeds: the chi-square
// of every seed's level counts against the shares of the available
// puzzles, its degrees of freedom, the samples wholly of one level, and
// the times a level expected 7 times or more in a sample was missing,
// which a uniform pick does less than once in a thousand.
type levelSpread struct {
	chi2    float64
	df      int
	oneOnly int
	missing int
}

// levelShares samples n puzzles for each of seeds 0..seeds-1 with f and
// compares each sample's level counts with want, the number of puzzles
// available at each level (indexed by level). The levels expected less
// than twice in a sample are pooled.
func levelShares(tb testing.TB, db *store.DB, f store.Filter, want map[int]int, n int, seeds uint64) levelSpread {
	return levelSharesOf(tb, db, f, want, n, seeds, true)
}

// levelSharesOf is levelShares with or without one puzzle a family.
func levelSharesOf(tb tester, db *store.DB, f store.Filter, want map[int]int, n int, seeds uint64, one bool) levelSpread {
	tb.Helper()
	total := 0
	for _, c := range want {
		total += c
	}
	var s levelSpread
	for seed := range seeds {
		got := map[int]int{}
		err := db.Query(context.Background(), f, store.QueryOptions{Order: store.OrderRandom, Limit: n, Seed: seed, OnePerFamily: one}, func(r store.Row) error {
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
		// The cells: each level expected twice or more, and a pool of the
		// others, merged into the smallest cell if it is expected less.
		type cell struct{ o, e float64 }
		var cells []cell
		var pool cell
		for level, avail := range want {
			c := cell{float64(got[level]), float64(k) * float64(avail) / float64(total)}
			if c.e >= 7 && c.o == 0 {
				s.missing++
			}
			if c.e < 2 {
				pool.o, pool.e = pool.o+c.o, pool.e+c.e
				continue
			}
			cells = append(cells, c)
		}
		if pool.e > 0 {
			if pool.e >= 2 || len(cells) == 0 {
				cells = append(cells, pool)
			} else {
				i := 0
				for j := range cells {
					if cells[j].e < cells[i].e {
						i = j
					}
				}
				cells[i].o, cells[i].e = cells[i].o+pool.o, cells[i].e+pool.e
			}
		}
		for _, c := range cells {
			s.chi2 += (c.o - c.e) * (c.o - c.e) / c.e
		}
		s.df += max(len(cells)-1, 0)
	}
	return s
}

// check fails tb if the spread is more than chance allows: a chi-square
// past its mean by six standard deviations and ten, which a uniform
// sample (whose counts vary less than the binomial ones the statistic
// assumes) reaches less than once in 10^6 tries, or a level missing from four samples
// where it was expected 7 times or more (once in 10^5 tries at most, for
// 100 levels and samples).
func (s levelSpread) check(tb tester, what string) {
	tb.Helper()
	if limit := float64(s.df) + 6*math.Sqrt(2*float64(s.df)) + 10; s.chi2 > limit || s.missing >= 4 {
		tb.Errorf("%s: chi-square %.0f over %d degrees of freedom (limit %.0f); %d samples of one level only; %d levels missing where expected",
			what, s.chi2, s.df, limit, s.oneOnly, s.missing)
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

// A random sample is a uniform pick of the puzzles that match and are
// available, whatever packs took before and whatever the filter: every
// puzzle of a sample matches and is available, a sample holds as many
// as it can up to its limit, one a family if asked, and over 20 seeds
// the levels come in the shares of what is available.
func TestRandomSampleProperty(t *testing.T) {
	ctx := context.Background()
	// One bank of unequal levels, several numbers of givens and ratings,
	// and one to three variants a family, copied for each case.
	dir := t.TempDir()
	template := filepath.Join(dir, "template.db")
	db, err := store.Open(ctx, template, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var batch []store.NewFamily
	for i := range 450 {
		level := []int{1, 1, 1, 1, 2, 2, 3, 4, 5}[i%9]
		// Most families have one puzzle, as in a bank built without
		// -variants, so that what a pack takes lies where it drew from.
		variants := 1
		if i%5 == 0 {
			variants = 2 + i%2
		}
		f := fam(i, level, 24+i%7, variants)
		f.ER = 10 + i%50 // the rating filter need not follow the levels
		batch = append(batch, f)
	}
	MustWrite(t, db, batch)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	cases := 0
	rapid.Check(t, func(t *rapid.T) {
		cases++
		path := filepath.Join(dir, fmt.Sprintf("case%d.db", cases))
		copyFile(t, template, path)
		defer os.Remove(path)
		db, err := store.Open(ctx, path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		drawFilter := func(label string) store.Filter {
			var f store.Filter
			if label == "pack 0" {
				// As in the issue: export -level easy -count 2000 -client acme.
				f.Levels = []int{rapid.IntRange(1, 5).Draw(t, label+" level")}
				return f
			}
			for l := 1; l <= 5; l++ {
				if rapid.Bool().Draw(t, fmt.Sprintf("%s level %d", label, l)) {
					f.Levels = append(f.Levels, l)
				}
			}
			if rapid.Bool().Draw(t, label+" givens") {
				f.GivensMin = rapid.IntRange(24, 30).Draw(t, label+" givens min")
				f.GivensMax = rapid.IntRange(f.GivensMin, 30).Draw(t, label+" givens max")
			}
			if rapid.Bool().Draw(t, label+" rating") {
				f.RatingMin = rapid.IntRange(10, 55).Draw(t, label+" rating min")
			}
			return f
		}
		// Packs as exports make them: for a client or none, of a
		// filter's families, a share of those that match.
		for i := range rapid.IntRange(1, 3).Draw(t, "packs") {
			f := drawFilter(fmt.Sprintf("pack %d", i))
			spec := store.PackSpec{Name: fmt.Sprint("pack", i), Client: rapid.SampledFrom([]string{"", "acme", "bob"}).Draw(t, "client")}
			if spec.Client != "" {
				f.NotForClient = spec.Client
			}
			avail, err := db.CountFamilies(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			n := int(float64(avail) * rapid.Float64Range(0.2, 0.9).Draw(t, "pack share"))
			seed := rapid.Uint64().Draw(t, "pack seed")
			if _, _, err := db.CreatePack(ctx, spec, f, store.QueryOptions{Order: store.OrderRandom, Seed: seed}, max(n, 1)); err != nil && !errors.Is(err, store.ErrNotEnough) {
				t.Fatal(err)
			}
		}
		f := drawFilter("sample")
		switch rapid.IntRange(0, 3).Draw(t, "availability") {
		case 1:
			f.Fresh = true
		case 2:
			f.Unreserved = true
		case 3:
			f.NotForClient = rapid.SampledFrom([]string{"acme", "bob", "carol"}).Draw(t, "for client")
		}
		limit := rapid.IntRange(1, 60).Draw(t, "limit")
		// Either plan gives the same rows; on a bank this small the
		// usual choice is often every row at once.
		defer store.SetScanBias(rapid.SampledFrom([]float64{0, 1, 1e30}).Draw(t, "scan bias"))()
		// What is available: every match, listed in ID order.
		matches := map[int64]store.Row{}
		families := map[int64]bool{}
		want := map[int]int{}
		if err := db.Query(ctx, f, store.QueryOptions{}, func(r store.Row) error {
			matches[r.ID] = r
			families[r.FamilyID] = true
			want[r.Level]++
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, one := range []bool{false, true} {
			for seed := range uint64(3) {
				var got []store.Row
				if err := db.Query(ctx, f, store.QueryOptions{Order: store.OrderRandom, Limit: limit, Seed: seed, OnePerFamily: one}, func(r store.Row) error {
					got = append(got, r)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				wantN := min(limit, len(matches))
				if one {
					wantN = min(limit, len(families))
				}
				if len(got) != wantN {
					t.Fatalf("one a family %v, seed %d: %d puzzles, want %d", one, seed, len(got), wantN)
				}
				seenRows, seenFams := map[int64]bool{}, map[int64]bool{}
				for _, r := range got {
					if _, ok := matches[r.ID]; !ok {
						t.Fatalf("one a family %v, seed %d: puzzle %d does not match or is taken", one, seed, r.ID)
					}
					if seenRows[r.ID] || one && seenFams[r.FamilyID] {
						t.Fatalf("one a family %v, seed %d: puzzle %d (family %d) twice", one, seed, r.ID, r.FamilyID)
					}
					seenRows[r.ID], seenFams[r.FamilyID] = true, true
				}
			}
		}
		if len(matches) > 0 {
			levelSharesOf(t, db, f, want, limit, 20, false).check(t, fmt.Sprintf("%+v", f))
		}
	})
}

// copyFile copies the file at from to to.
func copyFile(tb tester, from, to string) {
	tb.Helper()
	src, err := os.Open(from)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		tb.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		tb.Fatal(err)
	}
}

// A pack is uniform over families, not puzzles: a family of many
// variants is no likelier than one of one, a pack never holds two
// puzzles of one family, every row keeps to the filter, and the variant
// a family gives follows the seed. The bank: 90 families of one puzzle
// and 10 of 40 variants at level 2 (the ten hold 400 of its 490
// puzzles), and 20 families of 30 variants at level 3 that the filter
// leaves out. Over 300 packs of 10, sampled by puzzles the ten would
// take about four picks in five; by families one in ten.
func TestPackUniformOverFamilies(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	var batch []store.NewFamily
	heavy := map[string]bool{} // the canonical forms of the ten
	for i := range 100 {
		k := 1
		if i%10 == 0 {
			k = 40
		}
		f := fam(i, 2, 25, k)
		if k > 1 {
			heavy[f.Canon] = true
		}
		batch = append(batch, f)
	}
	for i := range 20 {
		batch = append(batch, fam(100+i, 3, 25, 30))
	}
	MustWrite(t, db, batch)

	const packs, size = 300, 10
	picks := map[int64]int{}     // family -> picks
	variants := map[int64]bool{} // the heavy families' puzzles picked
	heavyPicks := 0
	for seed := range uint64(packs) {
		rows, err := db.SelectParts(ctx, []store.PackPart{{Filter: store.Filter{Levels: []int{2}}, N: size}}, store.QueryOptions{Order: store.OrderRandom, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		for _, r := range rows {
			if r.Level != 2 {
				t.Fatalf("seed %d: puzzle %d has level %d, want 2", seed, r.ID, r.Level)
			}
			if seen[r.FamilyID] {
				t.Fatalf("seed %d: two puzzles of family %d", seed, r.FamilyID)
			}
			seen[r.FamilyID] = true
			picks[r.FamilyID]++
			fam, err := db.Family(ctx, r.FamilyID)
			if err != nil {
				t.Fatal(err)
			}
			if heavy[fam.Canon] {
				heavyPicks++
				variants[r.ID] = true
			}
		}
		if len(rows) != size {
			t.Fatalf("seed %d: %d rows, want %d", seed, len(rows), size)
		}
	}
	// The ten's picks are a sum of 300 hypergeometric counts of mean 1
	// and variance under 1: 300 give or take 17. Ten deviations either
	// way passes a uniform pick every time and fails a pick by puzzles
	// (about 2,400) by far.
	if want := packs * size / 10; heavyPicks < want-170 || heavyPicks > want+170 {
		t.Errorf("the ten families of 40 variants took %d of %d picks, want about %d (a tenth)", heavyPicks, packs*size, want)
	}
	// Each of the 100 families is expected 30 times: a chi-square over
	// them (99 degrees of freedom, mean 99, deviation 14) past six
	// deviations is not chance.
	// Written in one batch, the families took IDs 1 to 120 in order.
	if f, err := db.Family(ctx, 100); err != nil || f.Canon != batch[99].Canon {
		t.Fatalf("family 100 = %v, %v; want the 100th written", f.Canon, err)
	}
	chi2 := 0.0
	if len(picks) > 100 {
		t.Fatalf("%d families picked, want at most the 100 of level 2", len(picks))
	}
	e := float64(packs*size) / 100
	for id := int64(1); id <= 100; id++ {
		d := float64(picks[id]) - e
		chi2 += d * d / e
	}
	if limit := 99 + 6*math.Sqrt(2*99); chi2 > limit {
		t.Errorf("picks per family: chi-square %.0f over 99 degrees of freedom, limit %.0f", chi2, limit)
	}
	// The seed picks the variant: the ten's picks are not all one each.
	if len(variants) <= 10 {
		t.Errorf("the ten families gave %d distinct variants over %d picks, want the seed to vary them", len(variants), heavyPicks)
	}
}
