package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubank/store"
)

// manyVariants writes n families of k variants each, all level 2.
func manyVariants(t *testing.T, db *store.DB, n, k int) {
	t.Helper()
	var batch []store.NewFamily
	for i := range n {
		batch = append(batch, fam(i, 2, 25+i%5, k))
	}
	MustWrite(t, db, batch)
}

// familyClients maps each family in a pack to the clients of those packs.
func familyClients(t *testing.T, db *store.DB) map[int64]map[string]bool {
	t.Helper()
	ctx := context.Background()
	packs, err := db.Packs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]map[string]bool{}
	for _, p := range packs {
		rows, err := db.PackRows(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != p.Size {
			t.Errorf("pack %d has %d rows, size %d", p.ID, len(rows), p.Size)
		}
		for _, r := range rows {
			if out[r.FamilyID] == nil {
				out[r.FamilyID] = map[string]bool{}
			}
			out[r.FamilyID][p.Client] = true
		}
	}
	return out
}

func TestCreatePack(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 30, 5)

	spec := store.PackSpec{Name: "acme-1", Client: "acme", Format: "pdf", FilterText: "-level 2"}
	f := store.Filter{Levels: []int{2}, NotForClient: "acme"}
	pack, rows, err := db.CreatePack(ctx, spec, f, store.QueryOptions{Order: store.OrderRandom, Seed: 1}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if pack.Size != 10 || len(rows) != 10 || pack.PackSpec != spec {
		t.Errorf("CreatePack = %+v with %d rows", pack, len(rows))
	}
	seen := map[int64]bool{}
	for _, r := range rows {
		if seen[r.FamilyID] {
			t.Errorf("pack has family %d twice", r.FamilyID)
		}
		seen[r.FamilyID] = true
	}
	stored, err := db.PackRows(ctx, pack.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if stored[i] != rows[i] {
			t.Errorf("PackRows[%d] = %+v, want %+v", i, stored[i], rows[i])
		}
	}

	// Another client cannot get acme's families, in any variant.
	for _, flt := range []store.Filter{{}, {NotForClient: "globex"}} {
		n, err := db.CountFamilies(ctx, store.Filter{NotForClient: "globex"})
		if err != nil {
			t.Fatal(err)
		}
		if n != 20 {
			t.Errorf("families free for globex = %d, want 20", n)
		}
		_, _, err = db.CreatePack(ctx, store.PackSpec{Name: "globex-big", Client: "globex"}, flt, store.QueryOptions{}, 21)
		if !errors.Is(err, store.ErrNotEnough) {
			t.Errorf("CreatePack(21 for globex, filter %+v) error = %v, want ErrNotEnough", flt, err)
		}
	}
	_, rows2, err := db.CreatePack(ctx, store.PackSpec{Name: "globex-1", Client: "globex"}, store.Filter{}, store.QueryOptions{}, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows2 {
		if seen[r.FamilyID] {
			t.Errorf("globex got acme's family %d", r.FamilyID)
		}
	}
	// Now every family is taken: acme may not have more new ones, and a
	// pack without client may not take reserved families.
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "acme-2", Client: "acme"}, f, store.QueryOptions{}, 1); !errors.Is(err, store.ErrNotEnough) {
		t.Errorf("acme-2 error = %v, want ErrNotEnough", err)
	}
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "anon"}, store.Filter{}, store.QueryOptions{}, 1); !errors.Is(err, store.ErrNotEnough) {
		t.Errorf("pack without client error = %v, want ErrNotEnough", err)
	}
	// Without NotForClient, acme may be given its own families again.
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "acme-reprint", Client: "acme"}, store.Filter{}, store.QueryOptions{}, 10); err != nil {
		t.Errorf("acme reprint: %v", err)
	}

	packs, err := db.Packs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(packs) != 3 {
		t.Errorf("%d packs, want 3 (failed ones leave nothing)", len(packs))
	}
	for fam, clients := range familyClients(t, db) {
		if len(clients) != 1 {
			t.Errorf("family %d went to clients %v", fam, clients)
		}
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reserved != 30 || st.Clients != 2 || st.Packs != 3 || st.PackItems != 40 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestCreatePackFresh(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 10, 3)
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "a"}, store.Filter{}, store.QueryOptions{}, 4); err != nil {
		t.Fatal(err)
	}
	n, err := db.CountFamilies(ctx, store.Filter{Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Errorf("fresh families = %d, want 6", n)
	}
	_, rows, err := db.CreatePack(ctx, store.PackSpec{Name: "b", Client: "c"}, store.Filter{Fresh: true}, store.QueryOptions{Order: store.OrderRandom, Seed: 3}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Errorf("%d rows, want 6", len(rows))
	}
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "c"}, store.Filter{Fresh: true}, store.QueryOptions{}, 1); !errors.Is(err, store.ErrNotEnough) {
		t.Errorf("error = %v, want ErrNotEnough", err)
	}
}

// Two writers on one file, each exporting for its own client, never
// share a family, however many variants each family has.
func TestConcurrentPacksAreExclusive(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	seed := MustOpen(t, path)
	manyVariants(t, seed, 60, 20)

	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for c := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := store.Open(ctx, path, store.Options{})
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			client := fmt.Sprintf("client-%d", c)
			for i := range 10 {
				spec := store.PackSpec{Name: fmt.Sprintf("%s-%d", client, i), Client: client}
				_, _, err := db.CreatePack(ctx, spec, store.Filter{NotForClient: client}, store.QueryOptions{Order: store.OrderRandom, Seed: uint64(i)}, 3)
				if err != nil && !errors.Is(err, store.ErrNotEnough) {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for fam, clients := range familyClients(t, seed) {
		if len(clients) != 1 {
			t.Errorf("family %d went to clients %v", fam, clients)
		}
	}
}

func TestFreePackName(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 10, 3)
	for _, name := range []string{"a", "a-2", "b-2"} {
		if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: name}, store.Filter{}, store.QueryOptions{}, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"a", "a-3"},
		{"b", "b"},
		{"b-2", "b-2-2"},
		{"c", "c"},
	} {
		if got, err := db.FreePackName(ctx, tc.name); err != nil || got != tc.want {
			t.Errorf("FreePackName(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestAutoPackName checks the made-up name of a pack: the time and the
// file's base name, shortened by whole characters to leave room for
// FreePackName's number, and left out where it cannot be part of a name.
func TestAutoPackName(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("x", 3600))
	const stamp = "export-20260304T040607Z"
	long := "x" + strings.Repeat("é", 100) // cut inside an é unless cut by whole characters
	for _, tc := range []struct{ name, file, want string }{
		{"File", "out.sdm", stamp + "-out.sdm"},
		{"Path", filepath.Join("a", "b", "pack.pdf"), stamp + "-pack.pdf"},
		{"Stdout", "stdout", stamp + "-stdout"},
		{"BadName", "bad\x01name.sdm", stamp},
		{"Long", long, stamp + "-x" + strings.Repeat("é", (store.MaxNameLen-len(stamp)-1-len("-1000000")-1)/2)},
	} {
		got := store.AutoPackName(now, tc.file)
		if got != tc.want {
			t.Errorf("%s: AutoPackName(%q) = %q, want %q", tc.name, tc.file, got, tc.want)
		}
		if err := store.CheckName(got + "-1000000"); err != nil {
			t.Errorf("%s: %q with a number: %v", tc.name, got, err)
		}
	}
}

// TestSortRows checks that rows sorted in memory come in the order Query
// gives them.
func TestSortRows(t *testing.T) {
	rows := func() []store.Row {
		return []store.Row{{ID: 3, ER: 20}, {ID: 1, ER: 30}, {ID: 4, ER: 20}, {ID: 2, ER: 10}}
	}
	ids := func(rs []store.Row) []int64 {
		var out []int64
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	for _, tc := range []struct {
		order store.Order
		want  []int64
	}{
		{store.OrderID, []int64{1, 2, 3, 4}},
		{store.OrderRating, []int64{2, 3, 4, 1}},
		{store.OrderRandom, []int64{3, 1, 4, 2}},
	} {
		rs := rows()
		store.SortRows(rs, tc.order)
		if got := ids(rs); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("SortRows(order %d) = %v, want %v", tc.order, got, tc.want)
		}
	}
}

// A short selection says how many families its filters match with the
// reserved ones counted too, capped at the count asked: the families its
// reservation rules kept from it, not others the filters leave out.
func TestShortErrorMatching(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 30, 3) // givens 25..29, 6 families each
	o := store.QueryOptions{Order: store.OrderRandom, Seed: 4}
	// acme takes 8 families of 25 or 26 givens, globex 5 of 27.
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "a", Client: "acme"}, store.Filter{GivensMin: 25, GivensMax: 26}, o, 8); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "g", Client: "globex"}, store.Filter{GivensMin: 27, GivensMax: 27}, o, 5); err != nil {
		t.Fatal(err)
	}
	short := func(err error) *store.ShortError {
		t.Helper()
		s := (*store.ShortError)(nil)
		if !errors.As(err, &s) {
			t.Fatalf("error %v, want a *ShortError", err)
		}
		return s
	}
	tests := []struct {
		name            string
		filter          store.Filter
		client          string
		n               int
		found, matching int
	}{
		// 18 families of 25..27 givens, 13 reserved.
		{"Unrecorded", store.Filter{GivensMax: 27, Unreserved: true}, "", 20, 5, 18},
		{"UnrecordedCapped", store.Filter{GivensMax: 27, Unreserved: true}, "", 10, 5, 10},
		// A pack for acme may not take globex's 5, nor acme's own 8.
		{"ForClient", store.Filter{GivensMax: 27, NotForClient: "acme"}, "acme", 20, 5, 18},
		// A pack for no client may take no reserved family.
		{"NoClient", store.Filter{GivensMax: 27}, "", 20, 5, 18},
		// The filters alone: nothing reserved among 28 and 29 givens.
		{"Filters", store.Filter{GivensMin: 28, NotForClient: "acme"}, "acme", 13, 12, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.filter.Unreserved {
				_, err = db.SelectParts(ctx, []store.PackPart{{Filter: tt.filter, N: tt.n}}, o)
			} else {
				_, _, err = db.CreatePack(ctx, store.PackSpec{Name: "x", Client: tt.client}, tt.filter, o, tt.n)
			}
			s := short(err)
			if s.Found != tt.found || s.Matching != tt.matching || s.Want != tt.n {
				t.Errorf("found %d, matching %d of %d; want %d, %d of %d", s.Found, s.Matching, s.Want, tt.found, tt.matching, tt.n)
			}
		})
	}
}
