package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
)

// rareBank writes families with many (level, givens) buckets, where
// "jellyfish" is rare (about one family in 40) and "naked-single"
// common, some in the list form; families have up to 4 variants.
func rareBank(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db := openTempBank(t, Options{})
	r := rand.New(rand.NewPCG(3, 4))
	for b := range 4 {
		var batch []NewFamily
		for i := range 100 {
			n := 100*b + i
			steps := []string{"full-house", "hidden-single-box"}
			if r.IntN(2) == 0 {
				steps = append(steps, "naked-single")
			}
			if r.IntN(40) == 0 {
				steps = append(steps, "jellyfish")
			}
			f := NewFamily{Family: Family{
				Canon: techGrid(n), ER: 20 + r.IntN(5), Level: 1 + r.IntN(5), Score: r.Float64() * 5,
				Givens: 22 + r.IntN(15), MinRowCol: 1, Hardest: steps[len(steps)-1], Symmetry: "none", Source: "gen",
			}}
			if n%4 == 0 {
				f.Techniques = map[string]int{}
				for _, s := range steps {
					f.Techniques[s]++
				}
			} else {
				f.Path, _ = EncodePath(steps)
			}
			for v := range 1 + r.IntN(4) {
				p := techGrid(100_000 + 10*n + v)
				f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: p, Solution: p})
			}
			batch = append(batch, f)
		}
		if _, err := db.WriteBatch(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// withoutTechniquePlans runs fn with the technique plans off, to get
// the plain plans' answers, and turns them on again even if fn stops
// its test (t.Fatal runs the deferred calls).
func withoutTechniquePlans(fn func()) {
	techniquePlans = false
	defer func() { techniquePlans = true }()
	fn()
}

func queryIDs(t *testing.T, db *DB, f Filter, o QueryOptions) []string {
	t.Helper()
	var out []string
	if err := query(context.Background(), db.db, f, o, func(r Row) error {
		out = append(out, fmt.Sprintf("%d/%d/%d", r.ID, r.FamilyID, r.SortKey))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTechniquePlansAgree compares every plan the technique counts allow
// (no rows, fewer levels, the rare-technique plan run directly) with the
// plain plans, for each order, limits and one variant per family.
func TestTechniquePlansAgree(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t)
	min := 2.5
	filters := []Filter{
		{Technique: "jellyfish"},
		{Technique: "jellyfish", Levels: []int{2, 5}},
		{Technique: "jellyfish", GivensMin: 25, GivensMax: 33},
		{Technique: "jellyfish", ScoreMin: &min, RatingMax: 23},
		{Technique: "naked-single", Levels: []int{3}},
		{Technique: "naked-single"},
		{Technique: "x-wing"}, // no family uses it
	}
	options := []QueryOptions{
		{Order: OrderID}, {Order: OrderID, Limit: 3}, {Order: OrderID, OnePerFamily: true, Limit: 5},
		{Order: OrderRating}, {Order: OrderRating, Limit: 4},
		{Order: OrderRandom, Limit: 1, Seed: 1}, {Order: OrderRandom, Limit: 7, Seed: 2},
		{Order: OrderRandom, Limit: 50, Seed: 3, OnePerFamily: true}, {Order: OrderRandom, Limit: 10_000, Seed: 4},
	}
	for i, f := range filters {
		for j, o := range options {
			t.Run(fmt.Sprintf("Filter%dOptions%d", i, j), func(t *testing.T) {
				var want []string
				withoutTechniquePlans(func() { want = queryIDs(t, db, f, o) })
				if got := queryIDs(t, db, f, o); !slices.Equal(got, want) {
					t.Errorf("query = %v, want %v", got, want)
				}
				if o.Order == OrderRandom && o.OnePerFamily {
					// A sample of families reads the families, never
					// by the rare plan (samplefamilies.go).
					return
				}
				fams, err := rareFamilies(ctx, db.db, f)
				if err != nil {
					t.Fatal(err)
				}
				ids := make([]int64, len(fams))
				for i, fm := range fams {
					ids[i] = fm.ID
				}
				ord, _, err := randomOrderOf(ctx, db.db, f, o.Seed)
				if err != nil {
					t.Fatal(err)
				}
				// Both ways of reading the families' puzzles, and two IDs
				// a statement: a bucket's families take several statements,
				// as a big import's would past SQLite's limit.
				readers := map[string]func() ([]Row, error){
					"by family": func() ([]Row, error) { return rareRowsByFamily(ctx, db.db, f, ids) },
					"by bucket": func() ([]Row, error) { return rareRowsByBucket(ctx, db.db, f, bucketsOf(fams)) },
				}
				defer func(n int) { rareIDsPerStatement = n }(rareIDsPerStatement)
				for _, perStatement := range []int{rareIDsPerStatement, 2} {
					rareIDsPerStatement = perStatement
					for name, read := range readers {
						rows, err := read()
						if err != nil {
							t.Fatal(err)
						}
						var got []string
						if err := runRare(ctx, o, ord, rows, func(r Row) error {
							got = append(got, fmt.Sprintf("%d/%d/%d", r.ID, r.FamilyID, r.SortKey))
							return nil
						}); err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(got, want) {
							t.Errorf("rare plan %s, %d IDs a statement = %v, want %v", name, perStatement, got, want)
						}
					}
				}
				if i < 4 && o.Limit == 0 && len(want) == 0 {
					t.Errorf("no rows: the bank should have some for a rare technique")
				}
			})
		}
	}
	for i, f := range filters {
		for _, fams := range []bool{false, true} {
			var (
				want int64
				err  error
			)
			withoutTechniquePlans(func() { want, err = db.count(ctx, f, fams) })
			got, err2 := db.count(ctx, f, fams)
			if err != nil || err2 != nil || got != want {
				t.Errorf("filter %d: count(families %v) = %d, %v; want %d, %v", i, fams, got, err2, want, err)
			}
		}
	}
}

// The rare plan is chosen for a rare technique over the whole bank and
// not for a common one under a limit, which the walk by ID meets soon,
// and not while a bulk load has both indexes it
// reads by, puzzles_family and puzzles_bucket, deferred.
func TestRarePlanChoice(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t)
	for _, c := range []struct {
		f    Filter
		o    QueryOptions
		want bool
	}{
		{Filter{Technique: "jellyfish"}, QueryOptions{Order: OrderID}, true},
		{Filter{Technique: "naked-single"}, QueryOptions{Order: OrderID, Limit: 10}, false},
	} {
		_, matches, err := techniqueTotals(ctx, db.db, c.f.Technique, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		done, err := queryRare(ctx, db.db, c.f, c.o, nil, matches, func(Row) error { return nil })
		if err != nil || done != c.want {
			t.Errorf("%s: rare plan taken %v, %v; want %v", c.f.Technique, done, err, c.want)
		}
	}
	for _, index := range []string{"puzzles_family", "puzzles_bucket"} {
		if _, err := db.db.ExecContext(ctx, "DROP INDEX "+index); err != nil {
			t.Fatal(err)
		}
	}
	done, err := queryRare(ctx, db.db, Filter{Technique: "jellyfish"}, QueryOptions{Order: OrderID}, nil, 10, func(Row) error { return nil })
	if err != nil || done {
		t.Errorf("without the indexes: rare plan taken %v, %v; want false", done, err)
	}
}

// The rare plan reads the families' puzzles through puzzles_family where
// it stands, and through puzzles_bucket where it does not (a reader while
// a bulk load has it deferred), with the same rows either way.
func TestRarePlanIndexes(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t)
	f := Filter{Technique: "jellyfish"}
	_, matches, err := techniqueTotals(ctx, db.db, f.Technique, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	withoutTechniquePlans(func() { want = queryIDs(t, db, f, QueryOptions{Order: OrderID}) })
	if len(want) == 0 {
		t.Fatalf("no rows of %s", f.Technique)
	}
	rare := func(index string) {
		t.Helper()
		q := &statements{QueryerContext: db.db}
		var got []string
		done, err := queryRare(ctx, q, f, QueryOptions{Order: OrderID}, nil, matches, func(r Row) error {
			got = append(got, fmt.Sprintf("%d/%d/%d", r.ID, r.FamilyID, r.SortKey))
			return nil
		})
		if err != nil || !done {
			t.Fatalf("%s: rare plan taken %v, %v; want it taken", index, done, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("rare plan by %s = %v, want %v", index, got, want)
		}
		if !slices.ContainsFunc(q.ran, func(s string) bool { return strings.Contains(s, "INDEXED BY "+index) }) {
			t.Errorf("rare plan did not read by %s: ran %q", index, q.ran)
		}
	}
	rare("puzzles_family")
	if _, err := db.db.ExecContext(ctx, "DROP INDEX puzzles_family"); err != nil {
		t.Fatal(err)
	}
	rare("puzzles_bucket")
}

// statements records the statements run through it.
type statements struct {
	sqlx.QueryerContext
	ran []string
}

func (s *statements) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s.ran = append(s.ran, query)
	return s.QueryerContext.QueryContext(ctx, query, args...)
}

func (s *statements) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	s.ran = append(s.ran, query)
	return s.QueryerContext.QueryxContext(ctx, query, args...)
}

func (s *statements) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	s.ran = append(s.ran, query)
	return s.QueryerContext.QueryRowxContext(ctx, query, args...)
}

// A query the rare plan cannot win, because reading every family to find
// the technique's already costs the usual walk (here a limit of one row),
// or that it cannot run, without the family and (level, givens) indexes,
// does not read the families table.
func TestRarePlanSkipsFamilies(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t)
	f := Filter{Technique: "jellyfish"}
	_, matches, err := techniqueTotals(ctx, db.db, f.Technique, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	readsFamilies := func(o QueryOptions) bool {
		t.Helper()
		q := &statements{QueryerContext: db.db}
		done, err := queryRare(ctx, q, f, o, newRandomOrder(o.Seed, 1000), matches, func(Row) error { return nil })
		if err != nil || done {
			t.Errorf("%+v: rare plan taken %v, %v; want false", o, done, err)
		}
		return slices.ContainsFunc(q.ran, func(s string) bool { return strings.Contains(s, "FROM families") })
	}
	if readsFamilies(QueryOptions{Order: OrderID, Limit: 1}) {
		t.Errorf("a limit of one row: the families were read")
	}
	for _, index := range []string{"puzzles_family", "puzzles_bucket"} {
		if _, err := db.db.ExecContext(ctx, "DROP INDEX "+index); err != nil {
			t.Fatal(err)
		}
	}
	if readsFamilies(QueryOptions{Order: OrderID}) {
		t.Errorf("without the family and (level, givens) indexes: the families were read")
	}
}

// The rare plan keeps to a window of IDs (UpToID) on a first page, as
// the walk by ID does: its rows are those of the walk up to that ID.
func TestRarePlanUpToID(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t)
	f := Filter{Technique: "jellyfish"}
	_, matches, err := techniqueTotals(ctx, db.db, f.Technique, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	withoutTechniquePlans(func() { all = queryIDs(t, db, f, QueryOptions{Order: OrderID}) })
	if len(all) < 2 {
		t.Fatalf("%d rows of %s, want 2 or more", len(all), f.Technique)
	}
	// Up to the second match's ID: the window holds the first two.
	var upTo int64
	fmt.Sscanf(all[1], "%d/", &upTo)
	var got []string
	done, err := queryRare(ctx, db.db, f, QueryOptions{Order: OrderID, UpToID: upTo}, nil, matches, func(r Row) error {
		got = append(got, fmt.Sprintf("%d/%d/%d", r.ID, r.FamilyID, r.SortKey))
		return nil
	})
	if err != nil || !done {
		t.Fatalf("rare plan taken %v, %v; want it taken", done, err)
	}
	if want := all[:2]; !slices.Equal(got, want) {
		t.Errorf("rare plan up to ID %d: %v, want %v", upTo, got, want)
	}
}

// A part of a pack that cannot be filled fails once the sample of
// families knows it is short: the families it found are counted, as many
// as a query reading them gives, and the variants of those it had not
// passed on yet are not read: its last statement reads families, whether
// it scanned them, read every slot in one batch, or did both.
func TestShortSampleReadsNoVariants(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t)
	f := Filter{Levels: []int{3}}
	o := QueryOptions{Order: OrderRandom, Seed: 5, OnePerFamily: true}
	var fams int
	if err := db.db.GetContext(ctx, &fams, "SELECT count(DISTINCT family_id) FROM puzzles WHERE level = 3"); err != nil {
		t.Fatal(err)
	}
	defer func(b float64, a int, m uint64) { scanBias, scanAfter, maxBatch = b, a, m }(scanBias, scanAfter, maxBatch)
	for _, plan := range []struct {
		name  string
		bias  float64
		after int
		batch uint64
	}{
		{"Scan", 1, 0, maxBatch},
		{"Slots", 1e-9, 0, maxBatch},
		{"SlotsThenScan", 1e-9, 1, 4},
	} {
		t.Run(plan.name, func(t *testing.T) {
			scanBias, scanAfter, maxBatch = plan.bias, plan.after, plan.batch
			var read int
			if err := query(ctx, db.db, f, QueryOptions{Order: o.Order, Seed: o.Seed, OnePerFamily: true, Limit: fams + 10}, func(Row) error {
				read++
				return nil
			}); err != nil || read != fams {
				t.Fatalf("query read %d rows, %v; want %d", read, err, fams)
			}
			q := &statements{QueryerContext: db.db}
			_, err := selectParts(ctx, q, []PackPart{{Filter: f, N: fams + 10}}, o, nil)
			short := (*ShortError)(nil)
			if !errors.As(err, &short) || short.Found != fams || short.Matching != fams {
				t.Fatalf("error %v, want a *ShortError of %d found, %d matching", err, fams, fams)
			}
			if len(q.ran) == 0 || !strings.HasPrefix(q.ran[len(q.ran)-1], "SELECT f.id, f.canon_key, f.id FROM ") {
				t.Errorf("statements after the last read of the families: %q", q.ran)
			}
			variants := slices.ContainsFunc(q.ran, func(s string) bool { return strings.HasPrefix(s, variantsSQL(1)[:40]) })
			if want := plan.after > 0; variants != want {
				t.Errorf("variants read %v, want %v: %q", variants, want, q.ran)
			}
		})
	}
}
