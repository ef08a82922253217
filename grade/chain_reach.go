package grade

import "math/bits"

// The searches of chainUnaryMode mostly record nothing, or nothing after
// their first levels. Which levels of a search can record does not
// depend on the parents it keeps: the nodes first reached at each depth
// are the same whatever parent reached them. So a pre-pass runs up to 64
// of the searches at once, breadth first, one bit a search in a word a
// node, and notes the levels at which each meets an end: an on node with
// a weak link to the start or, past the start, to one of its closers
// (the ancestor rule that can drop a cycle is ignored, so the pre-pass
// keeps more than it needs, never less); for a search from an off node,
// an off node with a strong link to the start. The exact search then
// runs only up to the last level that can record, or not at all, and
// still decides every chain it records, so hints stay the same
// (TestChainReachMatchesExact).

// chainSearch is one search of chainUnaryMode: from candidate k on
// (chains as chainFromOn takes it) or off.
type chainSearch struct {
	k      int16
	off    bool
	chains bool
}

// chainReachRounds bounds the rounds of a pre-pass: a search goes on only
// while each round reaches new off nodes, and there are at most 729.
const chainReachRounds = 736

// chainReach is the pre-pass: the link graph of a chainStatic on its
// nodes (the candidates with a strong link), numbered densely, and what
// the last batch of searches met.
type chainReach struct {
	n    int
	idx  [729]int16 // the number of a node, by candidate
	cand [729]int16 // the candidate of a node
	// The weak links of node i are wl[ws[i]:ws[i+1]], as node numbers;
	// its strong links sl[i][:sn[i]], the rest of the four being n, a
	// node no search reads, so that a round may visit two or four
	// without testing sn.
	ws [730]uint16
	wl [729 * 28]int16
	sn [729]uint8
	sl [730][4]int16

	// One bit a search of the batch, a word a node: what the weak and
	// strong links reach from the frontiers (x, y), the nodes visited on
	// and off (von, voff), and the ends: ec the on searches' starts, ey
	// their closers, eo the off searches' starts, ef the nodes that see
	// the start of an on search whose start has no strong link (and so
	// is in no list).
	x, y                      [730]uint64
	von, voff, ec, ey, eo, ef [729]uint64

	// first[l] is the first round in which search l met its start (on
	// searches: a chain; off searches: its end), or -1; cyc[r] has bit l
	// set when search l met a closer in round r; rounds is how many ran.
	// Round r takes the on nodes at depth 2r+1 (off searches: the off
	// nodes at depth 2r+1), and an end met there makes a chain or cycle
	// of 2r+2 nodes.
	first  [64]int16
	cyc    [chainReachRounds]uint64
	rounds int
}

// build numbers the nodes of st and copies its links; with X-links only,
// st holds the tables of digits only.
func (r *chainReach) build(st *chainStatic, digits uint16) {
	dm := uint16(allDigits)
	if !st.y {
		dm = digits
	}
	n := 0
	for c := 0; c < 81; c++ {
		for m := st.scell[c] & dm; m != 0; m &= m - 1 {
			k := c*9 + bits.TrailingZeros16(m) - 1
			r.idx[k] = int16(n)
			r.cand[n] = int16(k)
			n++
		}
	}
	r.n = n
	nw := 0
	for i, k := range r.cand[:n] {
		r.ws[i] = uint16(nw)
		for _, q := range st.weak(int(k)) {
			r.wl[nw] = r.idx[q]
			nw++
		}
		sn := int(st.strongN[k])
		r.sn[i] = uint8(sn)
		r.sl[i] = [4]int16{int16(n), int16(n), int16(n), int16(n)}
		for j, q := range st.strong[k][:sn] {
			r.sl[i][j] = r.idx[q]
		}
	}
	r.ws[n] = uint16(nw)
}

// run runs the searches ss (64 at most) of the links st (which build
// numbered) at once, as far as the bound h holds now lets each go.
func (r *chainReach) run(h *chainHints, st *chainStatic, ss []chainSearch) {
	n := r.n
	clear(r.x[:n+1])
	clear(r.y[:n+1])
	clear(r.von[:n])
	clear(r.voff[:n])
	clear(r.ec[:n])
	clear(r.ey[:n])
	clear(r.eo[:n])
	clear(r.ef[:n])
	// The searches fall in three groups by the most nodes they may
	// reach: a search runs round r while 2r+2 is at most its limit.
	var groupMask [3]uint64
	var groupLim [3]int
	maxCycle, maxChain := chainOnBounds(h, st, true)
	groupLim[0] = max(maxCycle, maxChain)
	maxCycle, maxChain = chainOnBounds(h, st, false)
	groupLim[1] = max(maxCycle, maxChain)
	groupLim[2] = chainOffBound(h, st)
	var sOut uint64 // on searches from a start with no strong link
	var buf [28]int16
	for l, se := range ss {
		bit := uint64(1) << l
		r.first[l] = -1
		k := int(se.k)
		if se.off {
			if groupLim[2] < 3 || st.strongN[k] == 0 {
				continue // chainFromOff returns at once
			}
			groupMask[2] |= bit
			i := r.idx[k]
			r.x[i] |= bit // met by round 0's weak links, as a new off node
			r.eo[i] |= bit
			continue
		}
		g := 0
		if !se.chains {
			g = 1
		}
		if groupLim[g] < 4 {
			continue // chainFromOn returns at once
		}
		groupMask[g] |= bit
		if st.strongN[k] == 0 {
			sOut |= bit
			for _, q := range st.fill(k, false, buf[:]) {
				i := r.idx[q]
				r.x[i] |= bit
				r.ef[i] |= bit
			}
			continue
		}
		i := r.idx[k]
		r.y[i] |= bit // reached on, as if by a strong link
		r.ec[i] |= bit
		for _, q := range st.strong[k][:st.strongN[k]] {
			r.ey[r.idx[q]] |= bit
		}
	}
	var done uint64 // searches whose last end is met
	alive := func(rd int) uint64 {
		var m uint64
		for g := range groupMask {
			if 2*rd+2 <= groupLim[g] {
				m |= groupMask[g]
			}
		}
		return m &^ done
	}
	var seen uint64 // searches that met their start
	met := func(m uint64, rd int) {
		m &^= seen
		seen |= m
		for ; m != 0; m &= m - 1 {
			r.first[bits.TrailingZeros64(m)] = int16(rd)
		}
	}
	// Each round takes what the strong links reached to the on frontier,
	// and that through the weak links to the off nodes, and those
	// through the strong links on: the ends the strong links meet belong
	// to the round before.
	rd := 0
	for ; rd < chainReachRounds; rd++ {
		live := alive(rd)
		var ch, och, front uint64
		for i := 0; i < n; i++ {
			yi := r.y[i]
			if yi == 0 {
				continue
			}
			r.y[i] = 0
			och |= yi & r.eo[i]
			fi := yi &^ r.von[i]
			r.von[i] |= fi
			fi &= live
			ch |= fi & r.ef[i]
			front |= fi
			for _, j := range r.wl[r.ws[i]:r.ws[i+1]] {
				r.x[j] |= fi
			}
		}
		if rd > 0 {
			met(och, rd-1)
			done |= och
		}
		if front == 0 && (rd > 0 || live&(sOut|groupMask[2]) == 0) {
			break
		}
		var cy, next uint64
		for i := 0; i < n; i++ {
			xi := r.x[i] & live
			r.x[i] = 0
			ch |= xi & r.ec[i]
			cy |= xi & r.ey[i]
			gi := xi &^ r.voff[i]
			r.voff[i] |= gi
			next |= gi
			sl := &r.sl[i]
			r.y[sl[0]] |= gi
			r.y[sl[1]] |= gi
			if r.sn[i] > 2 {
				r.y[sl[2]] |= gi
				r.y[sl[3]] |= gi
			}
		}
		// A search meets its start once: an on search then goes on only
		// for cycles, and has none without a strong link at its start;
		// an off search stops there.
		met(ch, rd)
		done |= ch & sOut
		r.cyc[rd] = cy
		if rd == 0 {
			r.cyc[0] = 0 // round 0 meets the closers from the start itself
		}
		if next == 0 {
			rd++
			break
		}
	}
	r.rounds = rd
}

// onNodes returns the most nodes search l of the last batch, from
// candidate s on, needs to go to record all it can with the bounds
// given, or 0 when it can record nothing.
func (r *chainReach) onNodes(l, s int, st *chainStatic, maxCycle, maxChain int) int {
	last := -1
	if f := int(r.first[l]); f >= 0 && 2*f+2 <= maxChain {
		last = f
	}
	if st.strongN[s] > 0 {
		hi := min(r.rounds-1, (maxCycle-2)/2)
		for rd := hi; rd > last; rd-- {
			if r.cyc[rd]>>l&1 != 0 {
				last = rd
				break
			}
		}
	}
	if last < 0 {
		return 0
	}
	return 2*last + 2
}

// offMeets reports whether search l of the last batch, from a candidate
// off, meets its start within maxChain nodes.
func (r *chainReach) offMeets(l, maxChain int) bool {
	f := int(r.first[l])
	return f >= 0 && 2*f+2 <= maxChain
}
