package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// A bulk load into an empty bank keeps the puzzles' unique (level,
// sort_key) index deferred too: with millions of rows, every batch of
// random keys dirties most of that index's leaf pages, and writing them
// through the WAL costs more than the rows themselves. The writer keeps
// the keys it stored in memory instead and checks each new row against
// them, as the index would; the index is built once, sorted, with the
// other deferred ones, or as soon as the writer leaves bulk mode.
//
// The memory holds a key and a row ID per row (16 bytes), so that a row
// whose key window holds a stored key can read the stored string by its
// ID and compare, exactly as resolveKeys does against the index.

// bulkKeyLimit is how many rows a writer keeps in memory before it builds
// the key index and goes on with it live: 8M rows, 128 MiB of keys.
var bulkKeyLimit = 8_000_000

// BulkKeyMemory bounds the memory a writer in bulk mode holds for its
// puzzles' keys and its families' keys (canon_key, see
// Options.DeferIndexes). The puzzles' keys take at most 300 MiB: 8M rows of 16
// bytes, a quarter of spare capacity, and a level's old slice while it
// grows, when all the rows are of one level (with rows spread over the
// levels, about 190 MiB). The family keys take at most 145 MiB, at 8M
// families (see bulkFamilyMemory); a run reaches both limits only with
// one puzzle a family. A caller that limits its heap
// (debug.SetMemoryLimit) leaves room for it.
const BulkKeyMemory = 300<<20 + bulkFamilyMemory

// keySlot is one stored row of a level: its sort key and row ID.
type keySlot struct {
	key, id int64
}

// keySet is the bulk writer's copy of the stored (size, level, sort_key)
// triples. It is only changed after a batch commits, so it never holds a
// key that is not in the bank.
type keySet struct {
	levels map[int32][]keySlot // by sizeLevel(size, level), sorted by key
	n      int                 // rows in all levels
	nextID int64               // the ID the next stored row takes
}

// inWindow returns the stored slots of a level (a sizeLevel) with keys in
// lo..hi, and the
// index of the first, which a caller walking keys in ascending order may
// pass back as from to start the next search there. The search gallops
// from from: a batch's keys of a level are spread over the stored ones,
// so the next is usually near, and a binary search over the whole rest
// would touch cold memory at each step.
func (s *keySet) inWindow(level int32, lo, hi int64, from int) ([]keySlot, int) {
	l := s.levels[level]
	i := from
	if i < len(l) && l[i].key < lo {
		// l[i].key < lo; the first key >= lo is in (i, end].
		end := i + 1
		for step := 1; end < len(l) && l[end].key < lo; step *= 2 {
			i, end = end, end+step
		}
		end = min(end, len(l))
		k, _ := slices.BinarySearchFunc(l[i+1:end], lo, func(e keySlot, k int64) int { return cmp.Compare(e.key, k) })
		i += 1 + k
	}
	j := i
	for j < len(l) && l[j].key <= hi {
		j++
	}
	return l[i:j], i
}

// add merges stored rows, which a batch has just committed, into the set.
// rows are sorted by size, level and key, as writePuzzles leaves them.
func (s *keySet) add(rows []pending) {
	// assignKeys moves a row only to a later key than the row before
	// takes, so the order holds; the check costs little next to the merge.
	byKey := func(a, b pending) int {
		if c := cmp.Compare(sizeLevel(a.size, a.level), sizeLevel(b.size, b.level)); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	}
	if !slices.IsSortedFunc(rows, byKey) {
		slices.SortFunc(rows, byKey)
	}
	if s.levels == nil {
		s.levels = map[int32][]keySlot{}
	}
	for lo := 0; lo < len(rows); {
		level := sizeLevel(rows[lo].size, rows[lo].level)
		hi := lo
		for hi < len(rows) && sizeLevel(rows[hi].size, rows[hi].level) == level {
			hi++
		}
		s.levels[level] = mergeSlots(s.levels[level], rows[lo:hi])
		lo = hi
	}
	s.n += len(rows)
	for _, q := range rows {
		s.nextID = max(s.nextID, q.id+1)
	}
}

// mergeSlots merges the rows (sorted by key) into l from its end, in
// place, growing l by a quarter when it is full rather than doubling it,
// so that the set's memory stays close to 16 bytes a row.
func mergeSlots(l []keySlot, rows []pending) []keySlot {
	n := len(l) + len(rows)
	if n > cap(l) {
		grown := make([]keySlot, len(l), n+n/4)
		copy(grown, l)
		l = grown
	}
	l = l[:n]
	i, j := n-len(rows)-1, len(rows)-1
	for k := n - 1; j >= 0; k-- {
		if i >= 0 && l[i].key > rows[j].key {
			l[k] = l[i]
			i--
		} else {
			l[k] = keySlot{rows[j].key, rows[j].id}
			j--
		}
	}
	return l
}

// storedInWindows finds, for rows sorted by size, level and key, the
// stored rows whose keys are in their windows, and reads their strings by
// ID: the taken slots resolveKeys needs. hit says whether any window
// holds one.
func (s *keySet) storedInWindows(ctx context.Context, tx *sqlx.Tx, rows []pending) (map[slot][]byte, bool, error) {
	var (
		found []slot
		ids   []int64
		from  int
		size  = -1
		level = -1
	)
	for _, q := range rows {
		if q.size != size || q.level != level {
			size, level, from = q.size, q.level, 0
		}
		lo, hi := window(q.key)
		var w []keySlot
		w, from = s.inWindow(sizeLevel(size, level), lo, hi, from)
		for _, e := range w {
			found = append(found, slot{size, level, e.key})
			ids = append(ids, e.id)
		}
	}
	if len(found) == 0 {
		return nil, false, nil
	}
	taken := make(map[slot][]byte, len(found))
	byID := make(map[int64]slot, len(found))
	for i, id := range ids {
		byID[id] = found[i]
		// A slot whose row cannot be read stays taken, by no string: the
		// rows here never go away, but a taken key is the safe guess.
		taken[found[i]] = nil
	}
	err := queryRows(ctx, tx, `SELECT p.id, `+puzzleExpr+` FROM `+rowsTable+` r CROSS JOIN puzzles p ON p.id = r.c0
		JOIN families f ON f.id = p.family_id WHERE r.handle = ?`,
		funcSource{len(ids), func(i, _ int) any { return ids[i] }},
		func(r *sql.Rows) error {
			var id int64
			var b []byte
			if err := r.Scan(&id, &b); err != nil {
				return err
			}
			taken[byID[id]] = b
			return nil
		})
	if err != nil {
		return nil, false, fmt.Errorf("read stored puzzles: %w", err)
	}
	return taken, true, nil
}

// The families' unique index of keys (families_canon_key) is deferred the
// same way when the bank has no families: 4,000 families of random keys
// a batch dirty many of its leaf pages. The writer gives the families the
// IDs 1, 2, 3... itself and keeps each one's key by ID; a batch's family
// whose key is there is compared with the stored form, read by ID, so a
// repeat is found, and a free key given, exactly as the index would.

// bulkFamilyLimit is how many families a writer keeps in memory before it
// builds the index of keys and goes on with it live.
var bulkFamilyLimit = 8_000_000

// bulkFamilyMemory bounds a famSet's memory up to bulkFamilyLimit
// families: 8 bytes a family for the hashes (in chunks of 512 KiB) and 4
// bytes a table slot, with the table at most 3/4 full, so 13 to 19 bytes
// a family (TestFamSetMemory). The most is reached when the table
// doubles from 2^23 to 2^24 slots at 6.3M families (48 MiB of hashes, 32
// MiB of old table and 64 MiB of new), 144 MiB; at the limit it holds
// 125 MiB.
const bulkFamilyMemory = 145 << 20

// famChunk is how many hashes a chunk of a famSet holds: the hashes grow
// a chunk at a time and are never copied.
const famChunk = 1 << 16

// famSet is the bulk writer's copy of the stored families' keys
// (canon_key) by family ID, for a bank whose family IDs it gave (1..n).
// Like keySet, it is only changed after a batch commits. Its "hashes" are
// the keys, which are hashes already, and unique, as the index of keys
// would have them: resolve gives each family a key the set and the batch
// do not hold.
type famSet struct {
	chunks [][]uint64 // the hash of family ID i is chunks[(i-1)/famChunk][(i-1)%famChunk]
	table  []uint32   // open addressing by hash, linear probing: family IDs, 0 for a free slot
	n      int        // families stored, the largest ID
}

func newFamSet() *famSet { return &famSet{table: make([]uint32, 1024)} }

func (s *famSet) hash(id uint32) uint64 {
	return s.chunks[(id-1)/famChunk][(id-1)%famChunk]
}

// get returns the ID of the stored family with hash h, if there is one.
func (s *famSet) get(h uint64) (int64, bool) {
	mask := uint64(len(s.table) - 1)
	for i := h & mask; s.table[i] != 0; i = (i + 1) & mask {
		if id := s.table[i]; s.hash(id) == h {
			return int64(id), true
		}
	}
	return 0, false
}

// insert adds the family with the next ID, n+1, and hash h.
func (s *famSet) insert(h uint64) {
	if s.n%famChunk == 0 {
		s.chunks = append(s.chunks, make([]uint64, 0, famChunk))
	}
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, h)
	s.n++
	if s.n > len(s.table)/4*3 {
		s.table = make([]uint32, 2*len(s.table))
		for id := 1; id < s.n; id++ {
			s.place(uint32(id))
		}
	}
	s.place(uint32(s.n))
}

// place puts id in the first free slot from its hash's.
func (s *famSet) place(id uint32) {
	mask := uint64(len(s.table) - 1)
	i := s.hash(id) & mask
	for s.table[i] != 0 {
		i = (i + 1) & mask
	}
	s.table[i] = id
}

// resolve finds the stored families among those at the batch indexes
// fresh, whose forms' keys out holds, and sets their rows in out, where
// their puzzles go; it returns the others, in batch order, to insert,
// each with the key in out it is to be stored under: its own, unless a
// stored family or an earlier one of the batch holds it, and then the
// first free key of its window, as resolveFamilies gives it against the
// index.
//
// A family whose key the set does not hold, and that shares it with no
// other family of the batch, keeps its key: every stored family's key is
// its form's or, when that was taken, a later one, so the form is not
// stored; and taken holds the key before any family of the batch moves,
// so none moves onto it. Only for
// the others does the set look up the whole window, and one statement
// read the stored forms there by ID.
func (s *famSet) resolve(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, fresh []int, out []famRow) ([]int, error) {
	keys := make([]int64, len(fresh))
	for n, i := range fresh {
		keys[n] = out[i].key
	}
	slices.Sort(keys)
	var (
		near   []int // batch indexes of the families that need their window
		isNear = make([]bool, len(batch))
		ids    []int64 // stored families in those windows, repeated where windows overlap
	)
	for _, i := range fresh {
		k := out[i].key
		j, _ := slices.BinarySearch(keys, k) // the first of k
		shared := j+1 < len(keys) && keys[j+1] == k
		id, stored := s.get(uint64(k))
		if !shared && !stored {
			continue
		}
		near, isNear[i] = append(near, i), true
		if stored {
			ids = append(ids, id)
		}
		// The rest of the window, k+1..hi; w < hi keeps w++ from
		// overflowing at the largest key.
		_, hi := window(k)
		for w := k; w < hi; {
			w++
			if id, ok := s.get(uint64(w)); ok {
				ids = append(ids, id)
			}
		}
	}
	if len(near) == 0 {
		return fresh, nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	atKey, err := storedFamilies(ctx, tx, familiesByIDSQL,
		funcSource{len(ids), func(k, _ int) any { return ids[k] }})
	if err != nil {
		return nil, fmt.Errorf("read stored families: %w", err)
	}
	if len(atKey) != len(ids) {
		return nil, fmt.Errorf("%d of the families this writer stored are missing", len(ids)-len(atKey))
	}
	// The keys the batch takes: the families that keep theirs now, the
	// others as they take one, in batch order.
	taken := map[int64]bool{}
	for _, i := range fresh {
		if !isNear[i] {
			taken[out[i].key] = true
		}
	}
	stored := map[int]bool{} // batch indexes
	for _, i := range near {
		dup, err := placeFamily(batch, i, out, atKey, taken)
		if err != nil {
			return nil, err
		}
		if dup {
			stored[i] = true
		}
	}
	if len(stored) == 0 {
		return fresh, nil
	}
	return slices.DeleteFunc(slices.Clone(fresh), func(i int) bool { return stored[i] }), nil
}

// familiesByIDSQL reads the stored families with the IDs c0 gives.
const familiesByIDSQL = `SELECT f.id, f.canon, f.canon_key, f.level, f.givens, f.er
	FROM ` + rowsTable + ` r CROSS JOIN families f ON f.id = r.c0
	WHERE r.handle = ?`

// add adds the batch's new families, which a batch has just committed
// under the IDs out gives them.
//
// Those are the set's next IDs in batch order, which insert assumes: in
// bulk mode writeFamilies gives n+1, n+2... in batch order to exactly the
// families it inserts, and inserts them all (no ON CONFLICT, no index of
// keys to meet), and those are the ones it marks new; the caller holds
// db.bulkMu from beginBatch to here, so n has not moved.
func (s *famSet) add(batch []NewFamily, out []famRow) {
	for i := range batch {
		if out[i].isNew {
			s.insert(uint64(out[i].key))
		}
	}
}

// beginBatch begins a batch's transaction on conn and returns the sets
// the batch checks its puzzles' keys and its families' keys against:
// each is nil if its unique index is live. The caller holds db.bulkMu.
//
// A bulk writer leaves bulk mode for a table for good when its set would
// pass its limit (bulkKeyLimit puzzles, bulkFamilyLimit families), and
// when another writer has stored rows in the table since its last batch
// (the largest row ID is not its own last), since its set no longer
// tells every stored row. A writer without a set for a table builds that
// table's unique index first if another writer deferred it: every batch
// it writes is then checked by the index.
func (db *DB) beginBatch(ctx context.Context, conn *sqlx.Conn, families, rows int) (*sqlx.Tx, *keySet, *famSet, error) {
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if db.bulk != nil && db.bulk.n+rows > bulkKeyLimit {
		db.bulk = nil
	}
	if db.canons != nil && db.canons.n+families > bulkFamilyLimit {
		db.canons = nil
	}
	if db.bulk != nil || db.canons != nil {
		var last struct {
			Puzzle int64 `db:"puzzle"`
			Family int64 `db:"family"`
		}
		if err := tx.GetContext(ctx, &last, `SELECT (SELECT COALESCE(MAX(id), 0) FROM puzzles) AS puzzle,
			(SELECT COALESCE(MAX(id), 0) FROM families) AS family`); err != nil {
			tx.Rollback()
			return nil, nil, nil, fmt.Errorf("last puzzle and family IDs: %w", err)
		}
		if db.bulk != nil && last.Puzzle != db.bulk.nextID-1 {
			db.bulk = nil
		}
		if db.canons != nil && last.Family != int64(db.canons.n) {
			db.canons = nil
		}
	}
	var live []string
	if db.bulk == nil {
		live = append(live, "puzzles_key")
	}
	if db.canons == nil {
		live = append(live, "families_canon_key")
	}
	if err := buildDeferredIndexes(ctx, tx, live...); err != nil {
		tx.Rollback()
		return nil, nil, nil, err
	}
	return tx, db.bulk, db.canons, nil
}

// buildDeferredIndexes builds the named indexes that a writer deferred
// (deferIndexes) in tx, and takes each one it builds off the deferred
// list. A name that is not deferred is skipped: its index is live. With
// no names it builds nothing; buildAllDeferredIndexes builds them all.
func buildDeferredIndexes(ctx context.Context, tx *sqlx.Tx, names ...string) error {
	if len(names) == 0 {
		return nil
	}
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = n
	}
	return buildIndexes(ctx, tx, " WHERE name IN (?"+strings.Repeat(", ?", len(names)-1)+")", args...)
}

// buildAllDeferredIndexes builds every index that a writer deferred, in
// tx, and empties the deferred list.
func buildAllDeferredIndexes(ctx context.Context, tx *sqlx.Tx) error {
	return buildIndexes(ctx, tx, "")
}

// buildIndexes builds the deferred indexes that where (a WHERE clause
// over deferred_indexes, or "" for all) selects with args, in name order.
func buildIndexes(ctx context.Context, tx *sqlx.Tx, where string, args ...any) error {
	var idx []struct {
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	if err := tx.SelectContext(ctx, &idx, "SELECT name, sql FROM deferred_indexes"+where+" ORDER BY name", args...); err != nil {
		return fmt.Errorf("build deferred indexes: %w", err)
	}
	for _, i := range idx {
		// The statement is the one SQLite itself stored for the index.
		if _, err := tx.ExecContext(ctx, i.SQL); err != nil {
			return fmt.Errorf("build index %s: %w", i.Name, err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM deferred_indexes WHERE name = ?", i.Name); err != nil {
			return fmt.Errorf("build index %s: %w", i.Name, err)
		}
	}
	return nil
}
