package store

// PuzzleMemory is about the bytes a puzzle holds on its way to the
// store: its strings, and Prepare's packed cells and driver values.
const PuzzleMemory = 600

// Prepare does the part of WriteBatch's work on a family that needs no
// database: it checks the family as WriteBatch would, packs its puzzles'
// grids, computes their sort keys and its canonical form's key, and makes
// the puzzles' values ready for SQLite. Callers that make families on
// several goroutines call it there, so that the single writer is left
// only the database's work.
//
// WriteBatch uses the preparation only while the family's canonical
// form, path and puzzle strings are still the ones prepared (equal
// strings; comparing a string with itself costs nothing): a family
// changed afterwards is checked and prepared again, never stored from
// stale work.
func Prepare(nf *NewFamily) (err error) {
	nf.prep, err = prepare(nf) // nil with an error
	return err
}

// prepare is Prepare's work, which WriteBatch does itself for a family
// without a matching preparation: the writer then reads every family's
// rows one way.
func prepare(nf *NewFamily) (*prepared, error) {
	cells, err := validFamily(nf)
	if err != nil {
		return nil, err
	}
	n := nf.size()
	p := &prepared{canon: nf.Canon, path: nf.Path, size: n, canonKey: canonKey(nf.Canon), rows: make([]preparedRow, len(nf.Puzzles))}
	l := packedLenOf(n)
	for i := range nf.Puzzles {
		q, r := &nf.Puzzles[i], &p.rows[i]
		r.text, r.sol, r.transform = q.Puzzle, q.Solution, q.Transform
		r.puzzle = cells[:l:l]
		r.solution = cells[l : 2*l : 2*l]
		cells = cells[2*l:]
		r.key = keyOf(q.Puzzle)
		r.vals = [5]any{r.puzzle, r.solution, q.Transform, r.key, nil}
	}
	// Transform codes number the 9x9 group alone (migrations/0013): a
	// family of another size keeps every row explicit, and its packed
	// grids are never read as 9x9 ones.
	if n == 9 {
		if _, err := appendPacked(p.canonCells[:0], nf.Canon); err != nil {
			return nil, err // validFamily has checked the form: not reached
		}
		p.derive()
	}
	return p, nil
}

// prepared is Prepare's work on a family.
type prepared struct {
	canon    string // the canonical form keyed
	path     string // the path checked
	size     int    // the size the grids were packed for
	canonKey int64  // canonKey(canon)
	// canonCells is canon packed, for a 9x9 family; solution is its
	// solution packed, when some row is derived by it (see derive), else
	// nil.
	canonCells [packedLen]byte
	solution   []byte
	rows       []preparedRow
}

// preparedRow is Prepare's work on one puzzle: the strings it was done
// for, and what WriteBatch would make of them.
type preparedRow struct {
	text, sol, transform string
	puzzle, solution     []byte // packed
	key                  int64
	// vals are the puzzle, solution, transform, key and code (nil until
	// derive finds one) as driver values: boxed here, mostly in a
	// worker, so that the single writer does not allocate them.
	vals [5]any
	// code is the transform's code when derived says the row can be
	// stored as it (derive).
	code    int64
	derived bool
}

// matches reports whether p is the preparation of nf as nf is now; a nil
// p matches nothing.
func (p *prepared) matches(nf *NewFamily) bool {
	if p == nil || len(p.rows) != len(nf.Puzzles) || p.canon != nf.Canon || p.path != nf.Path || p.size != nf.size() {
		return false
	}
	for i := range p.rows {
		r, q := &p.rows[i], &nf.Puzzles[i]
		if r.text != q.Puzzle || r.sol != q.Solution || r.transform != q.Transform {
			return false
		}
	}
	return true
}
