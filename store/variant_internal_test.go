package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sudokubank/migrations"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

// variantFixture is a real puzzle and its solution, so that its
// transforms are puzzles and solutions of one family.
const (
	variantPuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	variantSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// variantFamily returns a family whose canonical form is the fixture
// transformed by base, with the given puzzles: each a transform of the
// form, with its solution and transform text as gen writes them.
func variantFamily(t *testing.T, base gen.Transform, ts ...gen.Transform) (NewFamily, solve.Grid) {
	t.Helper()
	canon, sol := base.Apply(mustParse(t, variantPuzzle)), base.Apply(mustParse(t, variantSolution))
	f := NewFamily{Family: Family{Canon: canon.String(), ER: 20, Level: 2, Givens: canon.Givens(), Source: "gen"}}
	for _, tr := range ts {
		f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: tr.Apply(canon).String(), Solution: tr.Apply(sol).String(), Transform: tr.String()})
	}
	return f, sol
}

// storedRow is a puzzle row as the table holds it.
type storedRow struct {
	Code      sql.NullInt64  `db:"code"`
	Puzzle    []byte         `db:"puzzle"`
	Solution  []byte         `db:"solution"`
	Transform sql.NullString `db:"transform"`
	SortKey   int64          `db:"sort_key"`
}

func storedRowOf(t *testing.T, db *DB, key int64) storedRow {
	t.Helper()
	var r storedRow
	if err := db.db.GetContext(context.Background(), &r, "SELECT code, puzzle, solution, transform, sort_key FROM puzzles WHERE sort_key = ?", key); err != nil {
		t.Fatalf("row of key %d: %v", key, err)
	}
	return r
}

// TestDerivedRows: a puzzle whose transform text gen reads and whose
// grids it gives back is stored as its code alone, any other as it was
// given; both read back as they were written, by ID, by string and in a
// query, in a live bank and a bulk one.
func TestDerivedRows(t *testing.T) {
	for _, bulk := range []bool{false, true} {
		t.Run(map[bool]string{false: "Live", true: "Bulk"}[bulk], func(t *testing.T) {
			ctx := context.Background()
			db := openTempBank(t, Options{DeferIndexes: bulk})
			rng := rand.New(rand.NewPCG(1, 2))
			ts := []gen.Transform{gen.Identity(), gen.Turn90(), gen.RandomTransform(rng), gen.RandomTransform(rng)}
			f, sol := variantFamily(t, gen.MirrorLR(), ts...)
			derived := len(f.Puzzles)
			// Explicit rows: a text gen does not write; a transform that
			// does not give the puzzle; one that gives the puzzle but not
			// the solution.
			other := gen.RandomTransform(rng)
			f.Puzzles = append(f.Puzzles,
				Puzzle{Puzzle: gen.FlipTB().Apply(mustParse(t, f.Canon)).String(), Solution: gen.FlipTB().Apply(sol).String(), Transform: "flip"},
				Puzzle{Puzzle: other.Apply(mustParse(t, f.Canon)).String(), Solution: other.Apply(sol).String(), Transform: gen.Turn180().String()})
			bad := sol
			bad[0], bad[1] = bad[1], bad[0]
			third := gen.RandomTransform(rng)
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: third.Apply(mustParse(t, f.Canon)).String(), Solution: third.Apply(bad).String(), Transform: third.String()})
			if err := Prepare(&f); err != nil {
				t.Fatal(err)
			}
			mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: len(f.Puzzles)}, f)
			if err := db.BuildIndexes(ctx); err != nil {
				t.Fatal(err)
			}
			var famSol []byte
			if err := db.db.GetContext(ctx, &famSol, "SELECT solution FROM families"); err != nil || unpackGrid(famSol) != sol.String() {
				t.Errorf("family's solution = %q, %v; want %s", unpackGrid(famSol), err, sol)
			}
			for i, p := range f.Puzzles {
				key := keyOf(p.Puzzle)
				raw := storedRowOf(t, db, key)
				if want := i < derived; raw.Code.Valid != want || (raw.Puzzle == nil) != want || (raw.Solution == nil) != want || raw.Transform.Valid == want {
					t.Errorf("puzzle %d (%s): stored %+v, want derived %v", i, p.Transform, raw, want)
				}
				r, err := db.PuzzleByString(ctx, p.Puzzle)
				if err != nil {
					t.Fatalf("puzzle %d: %v", i, err)
				}
				if r.Puzzle != p.Puzzle || r.Solution != p.Solution || r.Transform != p.Transform {
					t.Errorf("puzzle %d by string = %s %s %q, want %s %s %q", i, r.Puzzle, r.Solution, r.Transform, p.Puzzle, p.Solution, p.Transform)
				}
				byID, err := db.Puzzle(ctx, r.ID)
				if err != nil || byID != r {
					t.Errorf("puzzle %d by ID = %+v, %v; want %+v", i, byID, err, r)
				}
			}
			n := 0
			if err := db.Query(ctx, Filter{}, QueryOptions{}, func(r Row) error {
				n++
				for _, p := range f.Puzzles {
					if p.Puzzle == r.Puzzle && (p.Solution != r.Solution || p.Transform != r.Transform) {
						t.Errorf("query gave %s %s %q, want %s %q", r.Puzzle, r.Solution, r.Transform, p.Solution, p.Transform)
					}
				}
				return nil
			}); err != nil || n != len(f.Puzzles) {
				t.Errorf("query: %d rows, %v; want %d", n, err, len(f.Puzzles))
			}
			// The same puzzles again are duplicates, found through their
			// derived grids, and a new transform of the stored family
			// (an import of a relabelled copy) is stored explicit: the
			// batch does not store the family, so its rows cannot rely
			// on the solution they were checked against.
			again, _ := variantFamily(t, gen.MirrorLR(), ts...)
			fresh := gen.RandomTransform(rng)
			more, _ := variantFamily(t, gen.MirrorLR(), fresh)
			mustWriteBatch(t, db, WriteResult{DupFamilies: 2, Puzzles: 1, DupPuzzles: len(ts)}, again, more)
			if raw := storedRowOf(t, db, keyOf(more.Puzzles[0].Puzzle)); raw.Code.Valid {
				t.Errorf("a variant of a stored family: stored %+v, want explicit", raw)
			}
			if r, err := db.PuzzleByString(ctx, more.Puzzles[0].Puzzle); err != nil || r.Transform != fresh.String() || r.Solution != more.Puzzles[0].Solution {
				t.Errorf("a variant of a stored family reads %+v, %v", r, err)
			}
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}

func mustParse(t *testing.T, s string) solve.Grid {
	t.Helper()
	g, err := solve.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestVariantFuncErrors: a derived row that cannot be derived (a code
// out of range, a family without a solution: a bank changed by hand)
// fails its read with an error that says why, never a wrong grid or a
// panic.
func TestVariantFuncErrors(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	f, _ := variantFamily(t, gen.Identity(), gen.Turn90())
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1}, f)
	r, err := db.PuzzleByString(ctx, f.Puzzles[0].Puzzle)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.db.ExecContext(ctx, "UPDATE puzzles SET code = ? WHERE id = ?", gen.TransformCodes, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Puzzle(ctx, r.ID); err == nil {
		t.Error("a code out of range was read")
	}
	if _, err := db.db.ExecContext(ctx, "UPDATE puzzles SET code = 1 WHERE id = ?; UPDATE families SET solution = NULL", r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Puzzle(ctx, r.ID); err == nil {
		t.Error("a derived row of a family without a solution was read")
	}
	// The scans derive in Go (rowScan.row), with the same outcome.
	err = db.Query(ctx, Filter{}, QueryOptions{}, func(Row) error { return nil })
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("puzzle %d", r.ID)) || !errors.Is(err, ErrInvalid) {
		t.Errorf("query of a derived row of a family without a solution: %v", err)
	}
}

// TestPuzzlesVariantsMigration fills a schema-9 bank through the store
// (real variants, other puzzles, a pack), live and by a bulk writer that
// dies with its indexes deferred. 0010 must keep every puzzle row as it
// was, as an explicit row, keep the pack's references, and leave the
// three indexes live and none deferred; the bank then takes derived rows
// beside the old ones and reads both.
func TestPuzzlesVariantsMigration(t *testing.T) {
	for _, died := range []bool{false, true} {
		t.Run(map[bool]string{false: "Live", true: "Deferred"}[died], func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "bank.db")
			setMigrations(t, migrationsUpTo(t, 9))
			old, err := Open(ctx, path, Options{DeferIndexes: died})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			var ts []gen.Transform
			for range 5 {
				ts = append(ts, gen.RandomTransform(rng))
			}
			// Today's writer derives a new family's variants, which schema 9
			// cannot hold: the family goes first with one puzzle whose
			// transform it cannot read, so that its variants, written
			// after it, are explicit, as every row of a schema-9 bank is.
			first, _ := variantFamily(t, gen.Identity(), gen.Identity())
			first.Puzzles[0].Transform = ""
			f, _ := variantFamily(t, gen.Identity(), ts...)
			addVariantColumns(t, old)
			mustWriteBatch(t, old, WriteResult{Families: 1, Puzzles: 1}, first)
			mustWriteBatch(t, old, WriteResult{Families: 2, DupFamilies: 1, Puzzles: 9}, f, bulkFamily(1, 1, 2), bulkFamily(2, 3, 4))
			if _, _, err := old.CreatePack(ctx, PackSpec{Name: "p", Client: "acme"}, Filter{}, QueryOptions{}, 3); err != nil {
				t.Fatal(err)
			}
			dropVariantColumns(t, old)
			const cols = "SELECT id, family_id, sort_key, level, givens, er, puzzle, solution, transform FROM puzzles ORDER BY id"
			before := dumpQuery(t, old, cols)
			beforePack := dumpQuery(t, old, "SELECT * FROM pack_items ORDER BY pack_id, position")
			if died {
				var n int
				if err := old.db.GetContext(ctx, &n, "SELECT count(*) FROM deferred_indexes"); err != nil || n == 0 {
					t.Fatalf("indexes deferred by the schema-9 bulk load: %d, %v; want some", n, err)
				}
				old.db.Close()
			} else if err := old.Close(); err != nil {
				t.Fatal(err)
			}

			setMigrations(t, migrations.FS)
			var logged bytes.Buffer
			db, err := Open(ctx, path, Options{Log: slog.New(slog.NewTextHandler(&logged, nil))})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if l := logged.String(); !strings.Contains(l, "migrating the bank") || !strings.Contains(l, fmt.Sprintf("from=9 to=%d", mustLatest(t))) || !strings.Contains(l, "migrated the bank") {
				t.Errorf("the migration's log:\n%s", l)
			}
			if got := dumpQuery(t, db, cols); !slices.Equal(got, before) {
				t.Errorf("puzzles after the migration:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
			}
			if got := dumpQuery(t, db, "SELECT * FROM pack_items ORDER BY pack_id, position"); !slices.Equal(got, beforePack) {
				t.Errorf("pack items after the migration: %v, want %v", got, beforePack)
			}
			var n int
			if err := db.db.GetContext(ctx, &n, "SELECT (SELECT count(*) FROM puzzles WHERE code IS NOT NULL) + (SELECT count(*) FROM families WHERE solution IS NOT NULL)"); err != nil || n != 0 {
				t.Errorf("derived rows or family solutions after the migration: %d, %v; want none", n, err)
			}
			if got, want := puzzleIndexes(t, db), []string{"puzzles_bucket", "puzzles_er", "puzzles_family", "puzzles_key"}; !slices.Equal(got, want) {
				t.Errorf("indexes = %v, want %v", got, want)
			}
			var deferred []string
			if err := db.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes"); err != nil || len(deferred) != 0 {
				t.Errorf("deferred indexes = %v, %v; want none", deferred, err)
			}
			var fk []string
			if err := db.db.SelectContext(ctx, &fk, "SELECT \"table\" FROM pragma_foreign_key_check"); err != nil || len(fk) != 0 {
				t.Errorf("foreign key check: %v, %v", fk, err)
			}
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
			for _, p := range f.Puzzles {
				if r, err := db.PuzzleByString(ctx, p.Puzzle); err != nil || r.Solution != p.Solution || r.Transform != p.Transform {
					t.Errorf("%s after the migration: %+v, %v", p.Puzzle, r, err)
				}
			}
			// A new family's variants are derived beside the old rows; an
			// old family's duplicates are found through its explicit rows.
			g, _ := variantFamily(t, gen.Turn90(), gen.Identity(), gen.RandomTransform(rng))
			again, _ := variantFamily(t, gen.Identity(), ts[:2]...)
			mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 2, DupFamilies: 1, DupPuzzles: 2}, g, again)
			if err := db.db.GetContext(ctx, &n, "SELECT count(*) FROM puzzles WHERE code IS NOT NULL"); err != nil || n != 2 {
				t.Errorf("derived rows after a write: %d, %v; want 2", n, err)
			}
			for _, p := range g.Puzzles {
				if r, err := db.PuzzleByString(ctx, p.Puzzle); err != nil || r.Solution != p.Solution || r.Transform != p.Transform {
					t.Errorf("%s: %+v, %v", p.Puzzle, r, err)
				}
			}
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}

// dumpQuery returns the rows of q, each formatted as dumpBank does.
func dumpQuery(t *testing.T, db *DB, q string) []string {
	t.Helper()
	rows, err := db.db.Queryx(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%q", vals))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReaderDerivesAlone reads derived rows with OpenReadOnly in a process
// that has never opened a writer, as bankquery does: the reader must
// register the functions its queries call itself.
func TestReaderDerivesAlone(t *testing.T) {
	if path := os.Getenv("SUDOKUBANK_READER_BANK"); path != "" {
		db, err := OpenReadOnly(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		n := 0
		if err := db.Query(context.Background(), Filter{}, QueryOptions{}, func(r Row) error {
			n++
			if _, err := gen.ParseTransform(r.Transform); err != nil {
				t.Errorf("puzzle %d: %v", r.ID, err)
			}
			return nil
		}); err != nil || n != 3 {
			t.Errorf("query: %d rows, %v; want 3", n, err)
		}
		return
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	f, _ := variantFamily(t, gen.Identity(), gen.RandomTransform(rng), gen.RandomTransform(rng), gen.RandomTransform(rng))
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3}, f)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReaderDerivesAlone$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SUDOKUBANK_READER_BANK="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("reader in a fresh process: %v\n%s", err, out)
	}
}

// TestDeriveAfterWrongRow: a first row whose transform text is gen's but
// does not give its puzzle stays explicit, and does not keep the rows
// after it from being derived.
func TestDeriveAfterWrongRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a, b := gen.RandomTransform(rng), gen.RandomTransform(rng)
	f, _ := variantFamily(t, gen.Identity(), a, b)
	wrong := f.Puzzles[0]
	wrong.Transform = gen.Turn180().String()
	f.Puzzles = append([]Puzzle{wrong}, f.Puzzles...)
	p, err := prepare(&f)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{false, true, true} {
		if p.rows[i].derived != want {
			t.Errorf("row %d: derived %v, want %v", i, p.rows[i].derived, want)
		}
	}
	if p.solution == nil {
		t.Error("no family solution kept")
	}
}

// mustLatest returns the schema version the real migrations reach.
func mustLatest(t *testing.T) int {
	t.Helper()
	v, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
