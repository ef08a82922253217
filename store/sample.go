package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// A random sample must be a uniform pick over the rows that match and
// are available, however earlier packs took theirs. A pack is itself a
// sample, so whatever pattern samples leave in the sort keys, the next
// sample must not see it: a walk of consecutive keys from a random start
// does (a pack from one level leaves a run of that level's keys empty,
// and a later walk starting there drew only from the other levels).
//
// So the order of a sample is this: the key space is cut into slots of
// 2^k consecutive keys, so that a slot holds about one puzzle of each of
// the filter's levels, from an offset drawn from the seed; the slots are
// taken in the order a keyed permutation of their numbers gives, and the
// rows of a slot in the order of a keyed hash of their IDs. Every slot
// is as likely as any other to come at each place, whatever it holds, so
// the first rows of the order that match and are available are a uniform
// pick of them, and their levels come in the shares that are available.
//
// Reading it costs one index search a slot and level, about one for each
// row read, where a walk of consecutive keys reads the index in order for
// about half the cost. A sample reads the slots in batches of one
// statement, about as many as it needs at the rate slots gave rows so
// far, taking only the IDs and keys of their rows, then reads the rows
// it keeps by ID. Where the rows that match are so few that the slots it would
// still need cost more than reading every row of its levels, it reads
// the IDs and keys of every match instead and keeps those of the slots
// not yet read that come first in the order: the same rows, in the same
// order, as reading on slot by slot would give. A filter on the
// families' own columns (symmetry, source...) is passed by a family's
// every variant or by none: its matches are found through the families
// that pass, a fraction of the puzzles, and their number, counted first,
// says at once whether the slots are worth reading (scanSQL,
// familyMatches).

// randomOrder is the order of a random sample from one seed.
type randomOrder struct {
	bits   uint      // 2^bits slots
	shift  uint      // 2^shift keys a slot; bits + shift = 63
	offset uint64    // added to a key, modulo 2^63, before its slot is taken
	round  [4]uint64 // the keys of the permutation's rounds
	salt   uint64    // the key of the order of a slot's rows
	// indexed says the bank has the (level, sort_key) index that reads
	// slots; a bulk writer may have deferred it (randomOrderOf).
	indexed bool
	// families says the order is of families, not puzzles: a sample one
	// a family (samplefamilies.go), keyed by canon_key and family ID,
	// whose slots families_sample reads (then indexed says it is there).
	families bool
	// variantsIndexed says the bank has puzzles_family, which finds a
	// picked family's variants, and the puzzles of the families a filter
	// on their columns passes (scanSQL).
	variantsIndexed bool
	// familyCount is the number of families of the filter's levels and
	// givens: what reading the families that pass a filter costs.
	familyCount int64
}

// keyMask keeps the 63 bits of a sort key.
const keyMask = 1<<63 - 1

// newRandomOrder returns the order of the seed with at least n slots.
func newRandomOrder(seed uint64, n int64) *randomOrder {
	r := rand.New(rand.NewPCG(seed, 0x5eed5a3b1e0f0dd5))
	o := &randomOrder{offset: r.Uint64() & keyMask, salt: r.Uint64()}
	for i := range o.round {
		o.round[i] = r.Uint64()
	}
	if n > 1 {
		o.bits = uint(bits.Len64(uint64(n - 1)))
	}
	o.bits = min(o.bits, 62)
	o.shift = 63 - o.bits
	return o
}

// randomOrderOf returns the order of a random sample from the seed over
// the filter's levels and givens, with their number of puzzles, from the
// per-bucket counts: a slot for each puzzle a level holds on average.
// The same statement asks whether the slots' index is there, one read
// instead of two for a server's every random pick.
func randomOrderOf(ctx context.Context, q sqlx.QueryerContext, f Filter, seed uint64) (*randomOrder, int64, error) {
	return orderOf(ctx, q, f, seed, false)
}

// orderOf is randomOrderOf over the puzzles, or with families over the
// families (samplefamilies.go): then a slot for each family a level holds
// on average, and n is the number of families.
func orderOf(ctx context.Context, q sqlx.QueryerContext, f Filter, seed uint64, families bool) (*randomOrder, int64, error) {
	g := Filter{Levels: f.Levels, GivensMin: f.GivensMin, GivensMax: f.GivensMax, Size: f.Size, sizes: f.sizes}
	w, args, _, err := g.where("b", "", anyIndex)
	if err != nil {
		return nil, 0, err
	}
	count, slotIndex := "puzzles", "puzzles_key"
	if families {
		count, slotIndex = "families", "families_sample"
	}
	s := "SELECT COALESCE(SUM(b." + count + "), 0), COALESCE(SUM(b.families), 0)," +
		" EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = '" + slotIndex + "')," +
		" EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'puzzles_family')" +
		" FROM buckets b WHERE " + w
	type total struct {
		n, families              int64
		indexed, variantsIndexed bool
	}
	// A reader keeps the answer while the bank is unchanged.
	t, err := answer(q, s, args, func() (t total, err error) {
		err = q.QueryRowxContext(ctx, s, args...).Scan(&t.n, &t.families, &t.indexed, &t.variantsIndexed)
		return t, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("bucket counts: %w", err)
	}
	n := t.n
	levels := int64(len(slices.Compact(slices.Sorted(slices.Values(f.Levels)))))
	if levels == 0 {
		levels = 5
	}
	o := newRandomOrder(seed, (n+levels-1)/levels)
	o.indexed, o.families, o.variantsIndexed, o.familyCount = t.indexed, families, t.variantsIndexed, t.families
	return o, n, nil
}

// slots returns the number of slots.
func (o *randomOrder) slots() uint64 { return 1 << o.bits }

// slotOf returns the slot of a sort key.
func (o *randomOrder) slotOf(key int64) uint64 { return (uint64(key) + o.offset) & keyMask >> o.shift }

// keys returns the sort keys of a slot: one range, or two where the slot
// wraps around the end of the keys.
func (o *randomOrder) keys(slot uint64) [][2]int64 {
	lo := (slot<<o.shift - o.offset) & keyMask
	hi := (lo + 1<<o.shift - 1) & keyMask
	if lo <= hi {
		return [][2]int64{{int64(lo), int64(hi)}}
	}
	return [][2]int64{{int64(lo), keyMask}, {0, int64(hi)}}
}

// place returns the place of a slot in the order, and slotAt the slot at
// a place: a four-round Feistel permutation of an even number of bits,
// at least the slots', walked until it lands among the slots.
func (o *randomOrder) place(slot uint64) uint64 {
	for x := o.feistel(slot, false); ; x = o.feistel(x, false) {
		if x < o.slots() {
			return x
		}
	}
}

func (o *randomOrder) slotAt(place uint64) uint64 {
	for x := o.feistel(place, true); ; x = o.feistel(x, true) {
		if x < o.slots() {
			return x
		}
	}
}

func (o *randomOrder) feistel(x uint64, inverse bool) uint64 {
	half := (o.bits + 1) / 2
	mask := uint64(1)<<half - 1
	l, r := x>>half, x&mask
	if !inverse {
		for _, k := range o.round {
			l, r = r, l^mix64(r^k)&mask
		}
	} else {
		for i := len(o.round) - 1; i >= 0; i-- {
			l, r = r^mix64(l^o.round[i])&mask, l
		}
	}
	return l<<half | r
}

// rank is a row's place in the order.
type rank struct{ place, tie uint64 }

func (o *randomOrder) rank(r *Row) rank { return o.rankOf(r.SortKey, r.ID) }

// rankOf is the rank of the row with this sort key and ID.
func (o *randomOrder) rankOf(key, id int64) rank {
	return rank{o.place(o.slotOf(key)), mix64(o.salt ^ uint64(id))}
}

func compareRank(a, b rank) int {
	return cmp.Or(cmp.Compare(a.place, b.place), cmp.Compare(a.tie, b.tie))
}

// ranked is a row with its rank.
type ranked struct {
	rank
	row Row
}

// sortRanked sorts rows by rank; no two rows have the same, as the tie
// is a bijection of the ID.
func sortRanked(rows []ranked) {
	slices.SortFunc(rows, func(a, b ranked) int { return compareRank(a.rank, b.rank) })
}

// rangesPerStatement bounds the key ranges one statement of readSlots
// binds, two variables each, well under SQLite's 32,766 with room for
// the filter's own.
var rangesPerStatement = 4000

// maxBatch bounds the slots one batch reads, and so the rows it holds;
// tests make it small to read a small bank in several batches.
var maxBatch uint64 = 1 << 14

// scanBias scales what reading slot by slot is reckoned to cost against
// reading every row, and scanAfter, if positive, makes a sample read
// every row after that many batches of slots: tests set them to force
// either way.
var (
	scanBias  = 1.0
	scanAfter = 0
)

// queryRandom passes to fn the first o.Limit rows in the order ord that
// the filter selects (one a family with o.OnePerFamily); n is the number
// of puzzles the filter's levels and givens hold. o.Limit is positive:
// query refuses a random order without a limit.
func queryRandom(ctx context.Context, q sqlx.QueryerContext, f Filter, o QueryOptions, ord *randomOrder, n int64, fn func(Row) error) error {
	f.Levels = slices.Compact(slices.Sorted(slices.Values(f.Levels)))
	if len(f.Levels) == 0 {
		f.Levels = []int{1, 2, 3, 4, 5}
	}
	var seen map[int64]bool
	if o.OnePerFamily {
		seen = map[int64]bool{}
	}
	got := 0
	var (
		slots   = ord.slots()
		read    uint64 // the slots at places below this are read
		perSlot = float64(max(n, 1)) / float64(slots)
		// A slot costs a search of each size's level and its rows.
		slotCost = (float64(len(f.Levels)*len(f.sizeList())) + perSlot) * scanBias
		// matches, where not -1, is the number of matches, or with
		// many a lower bound (familyMatches), known before a slot is
		// read.
		matches = int64(-1)
		most    int64
	)
	if !ord.families && ord.indexed && familiesFirst(f, ord) {
		// Past most matches the slots cost less than the families: the
		// slots a pick needs fall as the matches grow, and the families
		// cost at least their matches.
		most = int64(min(math.Ceil(math.Sqrt(float64(o.Limit)*float64(slots)*slotCost)), float64(n)))
		var err error
		if matches, err = familyMatches(ctx, q, f, most); err != nil {
			return err
		}
	}
	for batches := 0; read < slots; batches++ {
		need := float64(o.Limit - got)
		rate := perSlot // rows a slot gives, until slots have given some
		if read > 0 {
			rate = max(float64(got), 0.5) / float64(read)
		}
		switch {
		case matches > most: // a lower bound
			rate = max(rate, float64(matches)/float64(slots))
		case matches >= 0:
			rate = max(float64(matches), 0.5) / float64(slots)
		}
		// Reading every row costs the rows of the slots not read, or,
		// reading the families that pass first (scanSQL), every family
		// of the levels, each a quarter of a search (a step along
		// families_sample and a look at the family: measured against a
		// slot, whose searches land anywhere), and the matches.
		want := need / rate
		scan := float64(n) * float64(slots-read) / float64(slots)
		if matches >= 0 {
			scan = float64(ord.familyCount)/4 + rate*float64(slots)
		}
		if !ord.indexed || want*slotCost > scan || scanAfter > 0 && batches == scanAfter {
			if ord.families {
				err := scanFamilies(ctx, q, f, ord, read, o.Limit-got, o.needAll, fn)
				if short := (*shortSample)(nil); errors.As(err, &short) {
					short.found += got
				}
				return err
			}
			return scanRandom(ctx, q, f, ord, read, o.Limit-got, seen, fn)
		}
		// A margin of a tenth and two deviations (the rows of slots
		// come about as a Poisson count) makes a second batch rare
		// without reading many more slots than a small pick needs.
		batch := min(uint64(math.Ceil(want*1.1+2*math.Sqrt(want)))+1, slots-read, maxBatch)
		rows, err := readSlots(ctx, q, f, ord, read, batch, seen != nil)
		if err != nil {
			return err
		}
		read += batch
		var ids []int64
		for _, r := range rows {
			if got+len(ids) == o.Limit {
				break
			}
			if seen != nil {
				if seen[r.family] {
					continue
				}
				seen[r.family] = true
			}
			ids = append(ids, r.id)
		}
		// Every slot read and the sample still short: a caller that
		// needs every row fails without the variants of these families.
		if o.needAll && ord.families && read == slots && got+len(ids) < o.Limit {
			return &shortSample{found: got + len(ids)}
		}
		if ord.families {
			err = fetchVariants(ctx, q, ord, ids, fn)
		} else {
			err = fetchRows(ctx, q, ids, fn)
		}
		if err != nil {
			return err
		}
		if got += len(ids); got == o.Limit {
			return nil
		}
	}
	return nil
}

// slotRow is a row of the slots read: its ID, its family (when a
// sample takes one a family) and its rank. A read of the slots takes no
// more of a row, from the (level, sort_key) index alone where the filter
// allows, so that only the rows a sample keeps are read whole, and only
// their grids derived (fetchRows).
type slotRow struct {
	rank
	id, family int64
}

// readSlots returns the rows the filter selects in the slots at places
// from..from+n-1, by rank; f has its levels. family asks for the rows'
// families.
func readSlots(ctx context.Context, q sqlx.QueryerContext, f Filter, ord *randomOrder, from, n uint64, family bool) ([]slotRow, error) {
	p, famID := "p", "p.family_id"
	if ord.families {
		p, famID = "f", "f.id"
	}
	w, wargs, join, err := f.where(p, famID, indexable{level: true})
	if err != nil {
		return nil, err
	}
	var ranges [][2]int64
	for place := from; place < from+n; place++ {
		ranges = append(ranges, ord.keys(ord.slotAt(place))...)
	}
	var rows []slotRow
	for len(ranges) > 0 {
		chunk := ranges[:min(len(ranges), rangesPerStatement)]
		ranges = ranges[len(chunk):]
		// The ranges are padded to a power of two with empty ones, so
		// that a few texts serve every batch and stay prepared.
		size := padded(len(chunk))
		args := make([]any, 0, 2*size+len(wargs))
		for _, r := range chunk {
			args = append(args, r[0], r[1])
		}
		for range size - len(chunk) {
			args = append(args, 1, 0)
		}
		args = append(args, wargs...)
		s := slotsSQL(w, join, family, size)
		if ord.families {
			s = familySlotsSQL(w, size)
		}
		if err := readSlotRows(ctx, q, s, args, func(r keyedRow) {
			r.rank = ord.rankOf(r.key, r.id)
			rows = append(rows, r.slotRow)
		}); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(rows, func(a, b slotRow) int { return compareRank(a.rank, b.rank) })
	return rows, nil
}

// padded returns the power of two at or above n.
func padded(n int) int {
	return 1 << bits.Len(uint(max(n, 1)-1))
}

// paddedIDs returns ids, which must not be empty, as the arguments of an
// IN list of padded(len(ids)) places, the rest filled with the last ID,
// which IN takes once: a few statement texts serve every chunk, as
// readSlots pads its ranges.
func paddedIDs(ids []int64) []any {
	args := make([]any, padded(len(ids)))
	for i := range args {
		args[i] = ids[min(i, len(ids)-1)]
	}
	return args
}

// keyedRow is a slotRow as read, with its sort key.
type keyedRow struct {
	slotRow
	key int64
}

// readSlotRows passes to fn each row of slotsSQL's statement s.
func readSlotRows(ctx context.Context, q sqlx.QueryerContext, s string, args []any, fn func(keyedRow)) error {
	rows, err := q.QueryContext(ctx, s, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var r keyedRow
	for rows.Next() {
		if err := rows.Scan(&r.id, &r.key, &r.family); err != nil {
			return err
		}
		fn(r)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// slotsSQL returns the statement that reads the ID, sort key and (with
// family, else 0) family of the rows of n key ranges, the first 2n
// arguments, that the condition w selects: one search of the (level,
// sort_key) index a range and level. join says w needs the families
// table (as f).
func slotsSQL(w string, join, family bool, n int) string {
	cols := "p.id, p.sort_key, 0"
	if family {
		cols = "p.id, p.sort_key, p.family_id"
	}
	from := " CROSS JOIN puzzles p"
	if join {
		from += " JOIN families f ON f.id = p.family_id"
	}
	return "SELECT " + cols + " FROM (VALUES (?, ?)" + strings.Repeat(", (?, ?)", n-1) + ") s" + from +
		" WHERE p.sort_key BETWEEN s.column1 AND s.column2 AND " + w
}

// idsPerStatement bounds the IDs one statement of fetchRows binds.
const idsPerStatement = 256

// fetchRows passes to fn the rows with the given IDs, in their order.
// The puzzles of a bank are never removed, so every ID read is there.
func fetchRows(ctx context.Context, q sqlx.QueryerContext, ids []int64, fn func(Row) error) error {
	byID := make(map[int64]Row, min(len(ids), idsPerStatement))
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), idsPerStatement)]
		ids = ids[len(chunk):]
		args := paddedIDs(chunk)
		clear(byID)
		if _, err := scanRows(ctx, q, fetchSQL(len(args)), args, 0, nil, func(r Row) error {
			byID[r.ID] = r
			return nil
		}); err != nil {
			return err
		}
		for _, id := range chunk {
			r, ok := byID[id]
			if !ok {
				return fmt.Errorf("puzzle %d: %w", id, ErrNotFound)
			}
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// fetchSQL returns the statement that reads the rows of n IDs.
func fetchSQL(n int) string {
	return "SELECT " + scanColumns + " FROM puzzles p JOIN families f ON f.id = p.family_id WHERE p.id IN (?" + strings.Repeat(", ?", n-1) + ")"
}

// scanRandom reads the ID and key of every row the filter selects and
// passes to fn the first limit of those in slots at places from read on,
// by rank, one a family not in seen if seen is not nil. It holds a few
// times limit IDs at most, and reads whole only the rows it passes on
// (fetchRows): deriving every match's grids cost more than the rest.
func scanRandom(ctx context.Context, q sqlx.QueryerContext, f Filter, ord *randomOrder, read uint64, limit int, seen map[int64]bool, fn func(Row) error) error {
	s, args, err := scanSQL(f, familiesFirst(f, ord))
	if err != nil {
		return err
	}
	var oneAFamily func([]slotRow) []slotRow
	if seen != nil {
		oneAFamily = func(best []slotRow) []slotRow {
			fams := map[int64]bool{}
			return slices.DeleteFunc(best, func(r slotRow) bool {
				if seen[r.family] || fams[r.family] {
					return true
				}
				fams[r.family] = true
				return false
			})
		}
	}
	ids, err := bestRanked(ctx, q, s, args, ord, read, limit, oneAFamily)
	if err != nil {
		return err
	}
	return fetchRows(ctx, q, ids, fn)
}

// bestRanked reads the rows of statement s with args (readSlotRows) and
// returns the IDs of the first limit of those in slots at places from
// read on, by rank; drop, if not nil, takes rows out of a sorted list
// (a family's later ones). It holds a few times limit rows at most.
func bestRanked(ctx context.Context, q sqlx.QueryerContext, s string, args []any, ord *randomOrder, read uint64, limit int, drop func([]slotRow) []slotRow) ([]int64, error) {
	var best []slotRow
	// keep sorts best and cuts it to the first limit rows.
	keep := func() {
		slices.SortFunc(best, func(a, b slotRow) int { return compareRank(a.rank, b.rank) })
		if drop != nil {
			best = drop(best)
		}
		best = best[:min(len(best), limit)]
	}
	if err := readSlotRows(ctx, q, s, args, func(r keyedRow) {
		r.rank = ord.rankOf(r.key, r.id)
		if r.place < read {
			return
		}
		if best = append(best, r.slotRow); len(best) >= 2*limit+1024 {
			keep()
		}
	}); err != nil {
		return nil, err
	}
	keep()
	ids := make([]int64, len(best))
	for i, r := range best {
		ids[i] = r.id
	}
	return ids, nil
}

// familyMatches returns the number of puzzles whose families pass the
// filter, or most+1 where there are more: the rate at which slots give
// matches, and what reading the families first costs, known before a
// slot is read. It counts the entries of puzzles_family, whose puzzles it
// does not read, and stops at most+1, so that a filter most families
// pass costs a few of them. A reader keeps the answer while the bank is
// unchanged, as anyFamily keeps its own.
func familyMatches(ctx context.Context, q sqlx.QueryerContext, f Filter, most int64) (int64, error) {
	w, args, _, err := f.where("f", "f.id", anyIndex)
	if err != nil {
		return 0, err
	}
	s := "SELECT count(*) FROM (SELECT 1 FROM families f CROSS JOIN puzzles p WHERE p.family_id = f.id AND " + w + " LIMIT ?)"
	args = append(args, most+1)
	n, err := answer(q, s, args, func() (n int64, err error) {
		err = q.QueryRowxContext(ctx, s, args...).Scan(&n)
		return n, err
	})
	if err != nil {
		return 0, fmt.Errorf("matches of the families: %w", err)
	}
	return n, nil
}

// familiesFirst reports whether scanRandom reads the families that pass
// the filter before their puzzles: where the filter is on the families'
// own columns (symmetry, minimal, source...), which hold for all of a
// family's variants or none, and puzzles_family finds a family's
// puzzles. There is about one family for each variant a family stores,
// so that this reads a fraction of what a walk of every puzzle of the
// levels checks, and then only the matches. A bulk writer may have
// deferred puzzles_family: the puzzles are then read as before.
func familiesFirst(f Filter, ord *randomOrder) bool {
	return ord.variantsIndexed && f.onFamilies()
}

// scanSQL returns the statement that reads the ID, sort key and family
// of every row the filter selects: with families, by reading the
// families that pass (through families_sample, which leads with their
// size and level, where the filter has levels) and then their puzzles
// through puzzles_family; else by reading the puzzles, checking each
// one's family where the filter asks. The rows are the same either way:
// the puzzles' own copies of their family's size, level, givens and
// rating are checked too, as the walk of the puzzles checks them.
func scanSQL(f Filter, families bool) (string, []any, error) {
	cols := "SELECT p.id, p.sort_key, p.family_id FROM "
	if !families {
		w, args, fam, err := f.where("p", "p.family_id", anyPuzzleIndex)
		if err != nil {
			return "", nil, err
		}
		from := "puzzles p"
		if fam {
			from += " JOIN families f ON f.id = p.family_id"
		}
		return cols + from + " WHERE " + w, args, nil
	}
	wf, args, _, err := f.where("f", "f.id", anyIndex)
	if err != nil {
		return "", nil, err
	}
	own := Filter{Levels: f.Levels, RatingMin: f.RatingMin, RatingMax: f.RatingMax,
		GivensMin: f.GivensMin, GivensMax: f.GivensMax, Size: f.Size, sizes: f.sizes}
	wp, pargs, _, err := own.where("p", "p.family_id", indexable{})
	if err != nil {
		return "", nil, err
	}
	// CROSS JOIN keeps the families outside: the other way round reads
	// every puzzle, as before.
	return cols + "families f CROSS JOIN puzzles p WHERE p.family_id = f.id AND " + wf + " AND " + wp, append(args, pargs...), nil
}
