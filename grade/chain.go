package grade

import (
	"context"
	"math/bits"
	"slices"

	"sudokubank/solve"
)

// This file holds the chainer's entry point, the tables every chain search
// shares and the collector that turns the hints of one producer into a
// Step. The searches follow Sudoku Explainer 1.2.1.3 (the version the SE
// ratings in ../shared/GRADING.md come from):
//
//   - The producers are tried in SE's order: cycles and forcing chains
//     (X, Y, then both), aligned triple exclusion, Nishio, multiple forcing
//     chains, dynamic forcing chains, dynamic forcing chains (+), then
//     the nested levels 2 to 5 (chain_nested.go).
//     The first producer that finds anything supplies the step, even when
//     a later one would have found a lower rating.
//   - Within a producer, SE collects every hint and applies the one with
//     the lowest rating. We apply all hints that share that lowest rating
//     at once: that set does not depend on the order cells are scanned in,
//     and it saves searches. The rating of the step is SE's. (SE's dynamic
//     chains still count ancestors in visiting order, so on rare puzzles
//     an isomorph rates 0.1 apart: 1 of 496 isomorphs of dev_se puzzles
//     rated 7.5-9.0.)
//   - Where SE's choice depends on how the grid is written and costs
//     little to avoid, we deviate: region chains are tried in every house
//     (see regionChains).
//   - A chain's rating is its base rating plus LengthBonus(nodes), where
//     nodes counts the distinct ancestors of the chain's conclusion (and
//     sums them over the branches of a multiple chain), as SE does.

// chainer finds the steps rated 6.5 and above on the SE scale: X- and
// Y-cycles, X- and XY-chains, alternating inference chains, aligned triple
// exclusion, Nishio, multiple, dynamic and nested forcing chains. The zero
// value is ready to use; it keeps about 3 MB of scratch space between
// calls, so reuse one per goroutine. It is not safe for concurrent use.
type chainer struct {
	hints chainHints
	unary *chainUnaryScratch // allocated on first use
	eng   *chainEngine       // dynamic chaining scratch, allocated on first use
	// maxLevel bounds the nesting level tried: 0 means as deep as
	// implemented (chainMaxNesting).
	maxLevel int
	// ceiling is the puzzle's rating so far: a nested producer stops at
	// its first hint rated no higher (see chainEngine.stopNow).
	ceiling Rating
	// links is the chain of the step next returned, when links are
	// recorded (Grader.RecordLinks) and it has one; the grader clears it
	// before each step.
	links []Link
	// ctx, when not nil, stops the search between producers, the
	// longest of which (nested chains) may run for seconds.
	ctx context.Context
	// sol, when not nil, is the solution of the grid next is called on
	// (see chainHints.sol).
	sol *solve.Grid
	// dver, when not nil, holds the grader's digit change counts
	// (state.dver): the search with X-links only, which stays in the
	// digit it starts from, found nothing in digit d where xNone[d] is
	// dver[d] with bit 63 set, and skips d until it changes. Only a
	// grid without naked singles may set it: such a search starts from
	// every cell with the digit and one other candidate or more.
	dver  *[10]uint64
	xNone [10]uint64
	// where, when not nil, holds the positions of the grid next is
	// called on per unit and digit (state.where), which the searches
	// would otherwise work out each time.
	where *[27][10]uint16
	// nishioNone[d] is, as xNone[d], dver[d] with bit 63 set when
	// Nishio, knowing the solution, met no contradiction in digit d.
	nishioNone [10]uint64
	// limit, when not 0, is the grade's ceiling (Grader.limit): next
	// tries no producer whose every step rates above it.
	limit Rating
	// triples skips the aligned triples that cannot have changed since
	// the last grid on which they found nothing.
	triples chainTripleQuiet
}

// next returns the easiest of those steps available in p, chosen by the
// SE rules, or false when none applies.
func (c *chainer) next(p *Position) (Step, bool) {
	h := &c.hints
	h.sol = c.sol
	h.reset(&p.Cands)
	if c.unary == nil {
		c.unary = new(chainUnaryScratch)
	}
	var xSkip uint16
	if c.dver != nil {
		for d := 1; d <= 9; d++ {
			if c.xNone[d] == c.dver[d]|1<<63 {
				xSkip |= 1 << d
			}
		}
	}
	if chainUnary(h, c.unary, &p.Cands, c.where, xSkip) && c.dver != nil {
		for d := 1; d <= 9; d++ {
			c.xNone[d] = c.dver[d] | 1<<63
		}
	}
	if h.found() {
		c.links = h.chainLinks()
		return h.step(), true
	}
	if c.eng == nil {
		c.eng = new(chainEngine)
	}
	e := c.eng
	if c.limit > 0 && c.limit < AlignedTripleExclusion.BaseRating() {
		return Step{}, false
	}
	chainAlignedTriples(h, &p.Cands, &c.triples)
	if h.found() {
		return h.step(), true
	}
	e.memo.reset()
	// Nishio's runs from a candidate of digit d follow only the cells
	// of d: unchanged since Nishio found no contradiction in d, they
	// find none again.
	e.nishioSkip = 0
	if c.dver != nil {
		for d := 1; d <= 9; d++ {
			if c.nishioNone[d] == c.dver[d]|1<<63 {
				e.nishioSkip |= 1 << d
			}
		}
	}
	maxLevel := c.maxLevel
	if maxLevel <= 0 || maxLevel > chainMaxNesting {
		maxLevel = chainMaxNesting
	}
	e.posGiven = c.where
	defer func() { e.posGiven = nil }()
	for _, m := range [...]chainMode{
		{nishio: true, dynamic: true, tech: Nishio},
		{multiple: true, tech: MultipleForcingChains},
		{multiple: true, dynamic: true, tech: DynamicForcingChains},
		{multiple: true, dynamic: true, level: 1, tech: DynamicForcingChainsPlus},
		{multiple: true, dynamic: true, level: 2, tech: NestedForcingChains2},
		{multiple: true, dynamic: true, level: 3, tech: NestedForcingChains3},
		{multiple: true, dynamic: true, level: 4, tech: NestedForcingChains4},
		{multiple: true, dynamic: true, level: 5, tech: NestedForcingChains5},
	} {
		if m.level > maxLevel || c.ctx != nil && c.ctx.Err() != nil || c.limit > 0 && c.limit < m.tech.BaseRating() {
			break
		}
		e.stopAt = 0
		if m.level >= 2 {
			e.stopAt = c.ceiling
		}
		e.multipleChains(h, &p.Cands, m)
		if m.nishio && c.dver != nil && c.sol != nil {
			for d := 1; d <= 9; d++ {
				if e.nishioHit&(1<<d) == 0 {
					c.nishioNone[d] = c.dver[d] | 1<<63
				}
			}
		}
		if h.found() {
			return h.step(), true
		}
	}
	return Step{}, false
}

// chainMaxNesting is the deepest nesting level implemented: 1 is dynamic
// forcing chains (+); levels 2 to 5 use forcing chains as links.
const chainMaxNesting = 5

// chainCells81 is a set of cells as two words (bits 0..63, 64..80).
type chainCells81 [2]uint64

func (s *chainCells81) add(c int)      { s[c>>6] |= 1 << (c & 63) }
func (s *chainCells81) has(c int) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Tables shared by every chain search. SE visits the houses of a cell in
// the order block, row, column, and the cells of a house in reading
// order; the order decides which of two equally short chains is recorded,
// which matters for dynamic chains, so we keep it.
var (
	// chainHouses[c] are the units (indices into solve.Units) of cell c:
	// its box, row and column, in that order.
	chainHouses [81][3]uint8
	// chainPeers[c] are the 20 cells that share a house with c, in the
	// order block, row, column, each once.
	chainPeers [81][20]uint8
	// chainPos[u][c] is the position (0..8) of cell c in unit u, or 9.
	chainPos [27][81]uint8
	// chainPeerPos[c][i] are the positions in the unit chainHouses[c][i]
	// of the peers of c that chainPeers lists under that house: the box
	// without c, then the row and the column outside the box.
	chainPeerPos [81][3]uint16
	// chainUnitCand[u][i] is 9*solve.Units[u][i] - 1: adding a digit
	// gives the candidate of that digit in the cell.
	chainUnitCand [27][9]int16
	// chainPeerSet[c] is the set of the peers of c.
	chainPeerSet [81]chainCells81
	// chainCellUnits[c] has bit u set for each unit u of cell c.
	chainCellUnits [81]uint32
)

func init() {
	for u := 0; u < 27; u++ {
		for c := 0; c < 81; c++ {
			chainPos[u][c] = 9
		}
		for i, c := range solve.Units[u] {
			chainPos[u][c] = uint8(i)
			chainUnitCand[u][i] = int16(9*c - 1)
		}
	}
	for c := 0; c < 81; c++ {
		r, col := c/9, c%9
		chainHouses[c] = [3]uint8{uint8(18 + r/3*3 + col/3), uint8(r), uint8(9 + col)}
		chainCellUnits[c] = 1<<(18+r/3*3+col/3) | 1<<r | 1<<(9+col)
		n := 0
		var seen chainCells81
		for i, u := range chainHouses[c] {
			for _, o := range solve.Units[u] {
				if o != c && !seen.has(o) {
					seen.add(o)
					chainPeers[c][n] = uint8(o)
					chainPeerPos[c][i] |= 1 << chainPos[u][o]
					chainPeerSet[c].add(o)
					n++
				}
			}
		}
	}
}

// chainUnitPositions returns, for digit d, the mask of the positions in
// unit u (bit i for solve.Units[u][i]) whose cell still has d.
func chainUnitPositions(cands *Candidates, u int, d int) uint16 {
	var m uint16
	for i, c := range solve.Units[u] {
		if cands[c]&(1<<d) != 0 {
			m |= 1 << i
		}
	}
	return m
}

// chainHints collects the hints of one producer and keeps those with the
// lowest rating. The zero value is not ready: call reset.
type chainHints struct {
	cands  *Candidates
	best   Rating
	tech   Technique
	any    bool
	elim   [81]uint16 // candidates removed by the best hints
	place  [81]uint8  // digits placed by the best hints
	cells  chainCells81
	digits uint16
	// sol, when not nil, is the solution of the grid: a search may skip
	// what it shows cannot succeed (see chainUnaryMode).
	sol *solve.Grid

	// nest, when set, receives every hint of the unary search instead
	// (the search then runs as a nested chain's inner producer).
	nest *chainNestSink

	// single keeps one hint, as SE does, instead of all those at the
	// lowest rating: the first of lowest rating, then fewest nodes, then
	// SE's sort key. It depends on the scan order; tests use it to
	// compare with SE's path.
	single           bool
	seq, bestSeq     int
	nodes, sortKey   int
	bestNodes, bestK int

	// path, when not nil, receives the chain of the first hint kept at
	// the best rating, for Grade.Links (Grader.RecordLinks).
	path *chainPath
}

// chainPath is the chain of a kept hint, reused from step to step.
type chainPath struct {
	seq   int // the hint it belongs to; 0 for none
	nodes []ChainNode
}

func (h *chainHints) reset(cands *Candidates) {
	*h = chainHints{cands: cands, single: h.single, path: h.path, sol: h.sol}
	if h.path != nil {
		h.path.seq, h.path.nodes = 0, h.path.nodes[:0]
	}
}

// begin starts a new hint with the given node count and SE sort key
// (1 double chain, 2 X, 3 Y, 4 mixed, 5 cell, 6 region, 7 contradiction).
func (h *chainHints) begin(nodes, sortKey int) {
	h.seq++
	h.nodes, h.sortKey = nodes, sortKey
}

// better reports whether the current hint, rated r, beats the best.
func (h *chainHints) better(r Rating) bool {
	if r != h.best {
		return r < h.best
	}
	if h.nodes != h.bestNodes {
		return h.nodes < h.bestNodes
	}
	return h.sortKey < h.bestK
}

func (h *chainHints) found() bool { return h.any }

// consider reports whether a hint rated r could still be kept.
func (h *chainHints) consider(r Rating) bool {
	return !h.any || r <= h.best
}

// bound returns the highest rating a hint may still have to be kept, or
// 0 when there is no bound yet.
func (h *chainHints) bound() Rating {
	if h.any {
		return h.best
	}
	return 0
}

// add records one hint: it removes the digits in mask from cell, or
// places digit place in cell when place is not 0. cells and digits
// describe the pattern.
func (h *chainHints) add(r Rating, t Technique, cell int, mask uint16, place int, cells chainCells81, digits uint16) {
	if place != 0 {
		mask = h.cands[cell] &^ (1 << place)
	}
	mask &= h.cands[cell]
	if mask == 0 && place == 0 {
		return // not worth it: nothing changes
	}
	if !h.consider(r) {
		return
	}
	if h.single && h.any && h.seq != h.bestSeq && !h.better(r) {
		return
	}
	if !h.any || r < h.best || (h.single && h.seq != h.bestSeq) {
		*h = chainHints{cands: h.cands, best: r, tech: t, any: true, single: h.single,
			seq: h.seq, bestSeq: h.seq, nodes: h.nodes, sortKey: h.sortKey,
			bestNodes: h.nodes, bestK: h.sortKey, path: h.path, sol: h.sol}
	}
	if t < h.tech {
		h.tech = t
	}
	h.elim[cell] |= mask
	if place != 0 {
		h.place[cell] = uint8(place)
	}
	h.cells[0] |= cells[0]
	h.cells[1] |= cells[1]
	h.digits |= digits
}

// keepPath records, when links are asked for, the chain of the current
// hint if it is the first one kept at the best rating: the chain that
// ends at node k (on when on, found through the parents in b), then the
// nodes t1 and t2 (candidates, t2 only when not negative) with states
// alternating from !on.
func (h *chainHints) keepPath(b *chainBFS, k int, on bool, t1, t2 int) {
	if h.path == nil || !h.any || h.bestSeq != h.seq || h.path.seq == h.seq {
		return
	}
	p := h.path
	p.seq, p.nodes = h.seq, p.nodes[:0]
	for n, o := k, on; n >= 0; o = !o {
		p.nodes = append(p.nodes, ChainNode{Cell: uint8(n / 9), Digit: uint8(n%9 + 1), On: o})
		if o {
			n = int(b.on[n].parent)
		} else {
			n = int(b.off[n].parent)
		}
	}
	slices.Reverse(p.nodes)
	o := !on
	for _, t := range [2]int{t1, t2} {
		if t < 0 {
			break
		}
		p.nodes = append(p.nodes, ChainNode{Cell: uint8(t / 9), Digit: uint8(t%9 + 1), On: o})
		o = !o
	}
}

// chainLinks returns the links of the chain kept for the best hints, or
// nil when none was kept.
func (h *chainHints) chainLinks() []Link {
	p := h.path
	if p == nil || p.seq == 0 || p.seq != h.bestSeq || len(p.nodes) < 2 {
		return nil
	}
	ls := make([]Link, len(p.nodes)-1)
	for i := range ls {
		from := p.nodes[i]
		ls[i] = Link{From: from, To: p.nodes[i+1], Strong: !from.On}
	}
	return ls
}

// step turns the best hints into a Step.
func (h *chainHints) step() Step {
	s := Step{Technique: h.tech, Rating: h.best, Digits: h.digits}
	for c := 0; c < 81; c++ {
		if h.cells.has(c) {
			s.Cells = append(s.Cells, uint8(c))
		}
		if h.place[c] != 0 {
			s.Placements = append(s.Placements, Placement{Cell: uint8(c), Digit: h.place[c]})
		}
		for m := h.elim[c]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m)
			if int(h.place[c]) == d {
				continue
			}
			s.Eliminations = append(s.Eliminations, Elimination{Cell: uint8(c), Digit: uint8(d)})
		}
	}
	return s
}
