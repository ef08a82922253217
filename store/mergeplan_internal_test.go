package store

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// The technique counts of a shard's families that the bank held already
// are read in one pass over the shard's puzzles: a subquery run for each
// family that scans the puzzles (a shard's puzzles_family may be deferred)
// made a second merge of a shard of 20,000 families take minutes.
func TestMergeDupTechniquesPlan(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	shard := openTempBank(t, Options{})
	conn, err := db.db.Connx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "ATTACH DATABASE ? AS "+mergeShardSchema, shard.path); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "CREATE TEMP TABLE IF NOT EXISTS merge_dups (id INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	mustOnePassPlan(t, conn, mergeDupTechniquesSQL, false)
}

// mustOnePassPlan fails the test if SQLite's plan of query scans a table
// under a correlated subquery, which runs once for each row of the query
// outside it, or, with noAutomatic, builds an automatic index, which
// holds a row for each row it indexes.
func mustOnePassPlan(t *testing.T, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, noAutomatic bool) {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	detail := map[int]string{}
	parent := map[int]int{}
	var plan []string
	for rows.Next() {
		var id, par, unused int
		var d string
		if err := rows.Scan(&id, &par, &unused, &d); err != nil {
			t.Fatal(err)
		}
		detail[id], parent[id] = d, par
		plan = append(plan, d)
		if noAutomatic && strings.Contains(d, "AUTOMATIC") {
			t.Errorf("plan builds an automatic index: %q", d)
		}
		if !strings.HasPrefix(d, "SCAN") {
			continue
		}
		for p := par; p != 0; p = parent[p] {
			if strings.HasPrefix(detail[p], "CORRELATED") {
				t.Errorf("plan scans %q for each row of an outer query", d)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if t.Failed() {
		t.Logf("plan:\n%s", strings.Join(plan, "\n"))
	}
}
