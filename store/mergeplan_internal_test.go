package store

import (
	"context"
	"strings"
	"testing"
)

// The technique counts of a shard's families that the bank held already
// are read in one pass over the shard's puzzles: a subquery run for each
// family that scans the puzzles (no index leads from a family to them)
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
	rows, err := conn.QueryContext(ctx, "EXPLAIN QUERY PLAN "+mergeDupTechniquesSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	// A scan under a correlated subquery runs once for each row of the
	// query outside it.
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
		if !strings.HasPrefix(d, "SCAN") {
			continue
		}
		for p := par; p != 0; p = parent[p] {
			if strings.HasPrefix(detail[p], "CORRELATED") {
				t.Errorf("plan scans %q for each row of an outer query:\n%s", d, strings.Join(plan, "\n"))
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
