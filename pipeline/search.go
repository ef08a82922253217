package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
	"sudokubank/store"
)

// For a rare target a fresh random dig wastes almost all of its grading:
// SE 9.0 and up is about one family in a thousand. An item of a run that
// searches (BuildOptions.Searches) digs a puzzle as any item does, then
// walks from it through its neighbourhood (gen.Mover: orbits of givens
// swapped, or a re-dig of the same solution grid), moving to a neighbour
// no further from the target than where it stands, and keeps every
// puzzle on the way that meets the target as a family of its own. Hard
// puzzles have hard neighbours, so once the walk reaches the target it
// stays there and finds family after family; it ends after SearchStall
// neighbours in a row that neither bring it closer nor meet the target.
// A walk for a hardest technique steers by the technique's near misses
// too (walk.near): for a technique as rare as a jellyfish the ratings
// alone lead nowhere. A walk at a rating target of 8.5 or more grades
// only the neighbours the solver finds hardest to search (walk.pick),
// and neighbours it passes over are no stall. All of it draws from the
// item's own source, so an item makes the same families with any number
// of workers.

// DefaultSearchStall is BuildOptions.SearchStall when zero.
const DefaultSearchStall = 128

// maxWalkStalls bounds a walk at this many times its stall limit, and
// maxWalkFamilies bounds the families it keeps, so that an item ends in
// bounded time even on a target most neighbours meet, where
// a neighbour rated 9.5 or more takes the grader about a second.
const (
	maxWalkStalls   = 4
	maxWalkFamilies = 32
)

// At a rating target a walk passes over most neighbours ungraded: the
// solver's search for a second solution (solve.Stats.Nodes) takes more
// nodes on harder puzzles, and costs a grade's tenth (about 0.3 ms
// against 3 to 30 ms at 9.0). Of a 9.0- walk's neighbours at the target
// 7.7% meet it; of those with 12 nodes or more 27%, and 81% of those
// that meet it have as many (6,288 neighbours, 180 items). So a step at
// the target draws pickOf neighbours, grades the one with the most nodes
// if it has pickNodes or more, and else grades none and is no stall: the
// walk moves on from where it stands, which still meets the target.
// pickFloor is the lowest floor a walk picks for. Such a walk finds
// families at a few times the rate of one that grades every neighbour,
// and it took about 400 ms of an item to reach the target (a third of
// the items do), so below climbFloor, where a neighbour at the target
// grades in tens of ms, it stays there longer: pickWalkStalls and
// pickWalkFamilies stand for maxWalkStalls and maxWalkFamilies.
const (
	pickOf                        = 3
	pickNodes                     = 12
	pickFloor        grade.Rating = 85
	pickWalkStalls                = 8
	pickWalkFamilies              = 96
)

// searchPuzzles bounds the puzzles (families and their variants) an item
// of a search keeps, so that the results a run holds before admitting
// them stay within what a window of fresh digs of MaxVariants holds.
const searchPuzzles = MaxVariants + 1

// GiveUpSearchItems is how many items a searching run makes before it
// gives up on a target it has not met once within them (see
// Target.GiveUpAfter): each item grades hundreds of neighbours, where a
// fresh dig grades one.
const GiveUpSearchItems = 250

// climbFloor is the lowest rating floor whose walks climb (walk.climb):
// fresh digs and their walks reach 9.4 at most (docs/performance.md), so
// a family rated 9.5 or more is one a walk must climb to from the
// bank's hardest, and climbs on from.
const climbFloor grade.Rating = 95

// Start points (LoadStarts): a searching run reads the startPoints
// families nearest its target from the bank, those at or above it
// first, rated at most startBelow under its floor, and startShare items
// in startShareOf walk from one of them rather than from a fresh dig,
// which still finds what the bank lacks.
const (
	startPoints               = 256
	startBelow   grade.Rating = 10
	startShare                = 3
	startShareOf              = 4
)

// Start is a puzzle a searching item may walk from instead of a fresh
// dig: one of the bank's families nearest the target, with its stored
// ER. Puzzle holds a 9x9 one, Sized one of another size.
type Start struct {
	Puzzle gen.Puzzle
	Sized  gen.SizedPuzzle
	ER     grade.Rating
}

// searchFloor is the rating floor from which a target is rare enough to
// search for.
const searchFloor grade.Rating = 75

// Searches reports whether a run with the options searches the
// neighbourhoods of its puzzles rather than only digging fresh ones: it
// does for a rare target, one rated 7.5 or more or a technique target,
// unless NoSearch is set. Evil alone is not searched for: every evil
// family must be graded in full either way, and fresh digs are as fast
// (docs/performance.md) and more varied.
func (o *BuildOptions) Searches() bool {
	if o.NoSearch {
		return false
	}
	return len(o.Hardest) > 0 || len(o.Uses) > 0 || o.floor() >= searchFloor
}

// floor returns the lowest ER a family meeting the options' target and
// levels can have.
func (o *BuildOptions) floor() grade.Rating {
	f := max(o.RatingMin, floorOf(o.Hardest), floorOf(o.Uses))
	if len(o.Levels) > 0 {
		if l := slices.Min(o.Levels); l > grade.ExtremelyEasy {
			f = max(f, grade.Levels[l-2].MaxER+1)
		}
	}
	return f
}

// ceiling returns the highest ER a family meeting the options' target
// and levels can have, 0 when there is none.
func (o *BuildOptions) ceiling() grade.Rating {
	c := o.RatingMax
	lower := func(r grade.Rating) {
		if c == 0 || r < c {
			c = r
		}
	}
	if len(o.Hardest) > 0 && !slices.ContainsFunc(o.Hardest, func(t grade.Technique) bool { return !t.Fixed() }) {
		m := grade.Rating(0)
		for _, t := range o.Hardest {
			m = max(m, t.BaseRating())
		}
		lower(m)
	}
	if len(o.Levels) > 0 {
		if l := slices.Max(o.Levels); l < grade.Evil {
			lower(grade.Levels[l-1].MaxER)
		}
	}
	return c
}

// walk is a worker's search state, reused from one item to the next.
type walk struct {
	stall       int          // BuildOptions.SearchStall
	stalls      int          // the walk's steps are at most stalls * stall
	most        int          // families an item keeps at most
	floor, ceil grade.Rating // of the target; ceil 0: none
	// climb is set for a target with no ceiling at or above climbFloor:
	// a walk at the target moves only to neighbours rated no lower, so
	// that walks from the bank's hardest climb on.
	climb bool
	// pick is set for a 9x9 rating target of pickFloor or more: at the
	// target the walk grades only the most promising of pickOf
	// neighbours (see pickOf).
	pick   bool
	solver solve.Solver // counts a neighbour's nodes, for pick
	mover  gen.Mover
	gr     grade.Grade // a neighbour's grade
	// near, for a target of hardest techniques, are those techniques: a
	// puzzle that uses one of them, but not as its hardest step, is a
	// near miss, and its neighbours often use it too, where a random
	// puzzle seldom does (a jellyfish: 1 in 2,000 fresh digs; 10% to 40%
	// of a user's neighbours). Such a walk has two stages: it wanders
	// among puzzles rated at or above the floor until it meets a near
	// miss, then climbs among near misses towards the target's ratings.
	near []grade.Technique
	// aim is the ceiling a walk with near steers by: the target's, or
	// where it has none (a chain's length adds to its rating) the
	// highest base rating of near and aimAbove.
	aim     grade.Rating
	visited map[uint64]struct{} // the walk's canonical forms, graded once
}

func newWalk(o *BuildOptions) *walk {
	w := &walk{stall: o.SearchStall, stalls: maxWalkStalls, most: maxWalkFamilies, floor: o.floor(), ceil: o.ceiling(), visited: make(map[uint64]struct{})}
	w.climb = w.ceil == 0 && w.floor >= climbFloor
	nine := !o.Shape.Valid() || o.Shape == grid.Nine // the other sizes walk in sized.go
	w.pick = nine && len(o.Hardest) == 0 && len(o.Uses) == 0 && w.floor >= pickFloor
	if w.pick && !w.climb {
		w.stalls, w.most = pickWalkStalls, pickWalkFamilies
	}
	w.most = min(w.most, searchPuzzles/(1+o.Variants))
	if w.stall <= 0 {
		w.stall = DefaultSearchStall
	}
	if o.SearchFamilies > 0 {
		w.most = min(w.most, o.SearchFamilies)
	}
	w.near, w.aim = o.Hardest, w.ceil
	if len(w.near) > 0 && w.aim == 0 {
		for _, t := range w.near {
			a := t.BaseRating() + aimAbove
			if t == grade.BruteForce {
				a = grade.UnfinishedER // the rating of an unfinished solve
			}
			w.aim = max(w.aim, a)
		}
	}
	return w
}

// aimAbove is how far above its base rating a walk for a technique whose
// length adds to its rating aims: the x-cycles fresh digs make rate 6.5
// and 6.6 (8 in 20,000).
const aimAbove grade.Rating = 1

// distance is how far a puzzle rated er is from the target's ratings.
func (w *walk) distance(er grade.Rating) grade.Rating {
	switch {
	case er < w.floor:
		return w.floor - er
	case w.ceil > 0 && er > w.ceil:
		return er - w.ceil
	}
	return 0
}

// bounds are the ratings of a neighbour worth grading in full, from a
// puzzle rated er: those no further from the target, which the walk
// moves to, the target's own among them.
func (w *walk) bounds(er grade.Rating) grade.Bounds {
	d := w.distance(er)
	b := grade.Bounds{Floor: max(w.floor-d, 0)}
	if w.ceil > 0 {
		b.Ceiling = w.ceil + d
	}
	return b
}

// nearDistance is how far a puzzle rated er is from the target of a walk
// with near: from the floor alone before the walk meets a near miss (it
// wanders above the floor), from the floor and aim once it has (miss set).
func (w *walk) nearDistance(er grade.Rating, miss bool) grade.Rating {
	switch {
	case er < w.floor:
		return w.floor - er
	case miss && er > w.aim:
		return er - w.aim
	}
	return 0
}

// nearBounds are the bounds of a walk with near, from a puzzle rated er:
// up to aim before the walk meets a near miss, which is as far as a
// neighbour's grade need go to show one (a step rated above aim is not
// the target's, or one the walk regrades), and no further from the target
// once it has.
func (w *walk) nearBounds(er grade.Rating, miss bool) grade.Bounds {
	d := w.nearDistance(er, miss)
	b := grade.Bounds{Floor: max(w.floor-d, 0), Ceiling: w.aim}
	if miss {
		b.Ceiling += d
	}
	return b
}

// uses reports whether gr, a grade in full or in part, has a step of a
// technique of near.
func (w *walk) uses(gr *grade.Grade) bool {
	for _, t := range w.near {
		if gr.Uses[t] > 0 {
			return true
		}
	}
	return false
}

// nearLast reports whether gr's last step is of a technique of near: a
// grade stopped above its ceiling by such a step may meet the target.
func (w *walk) nearLast(gr *grade.Grade) bool {
	return len(gr.Path) > 0 && slices.Contains(w.near, gr.Path[len(gr.Path)-1].Technique)
}

// meets reports whether a family graded gr is one the run keeps.
func (b *Builder) meets(gr *grade.Grade) bool {
	return b.want[gr.Level] && b.o.Meets(gr)
}

// search walks from st, drawing from the source rng of item it, and
// returns the families met on the way: the first as the result, the
// others in its More; OffTarget, or OffLevel with no level for a run
// without a target, when there are none. A fresh dig (st.ER 0) is graded
// and kept if it meets the target; a start point of the bank's is
// neither, its stored ER standing for its grade.
func (b *Builder) search(ctx context.Context, it Item, rng *rand.Rand, st *Start) Result[store.NewFamily] {
	w := b.walk
	clear(w.visited)
	// A walk that meets nothing made families off the target, or of no
	// wanted level (a rating floor from the levels alone).
	res := Result[store.NewFamily]{Reason: OffTarget}
	if !b.o.Targeted() {
		res.Reason = OffLevel
	}
	kept := 0
	// keep adds the puzzle cand, graded gr on its canonical form, as a
	// family, unless the bank has it.
	keep := func(cand gen.Puzzle, gr *grade.Grade, minimal bool) {
		orient := cand.Symmetry.RandomTransform(rng)
		first, firstSol := orient.Apply(cand.Grid), orient.Apply(cand.Solution)
		canon, t := b.canon.Canon(first)
		h := Hash(canon)
		if b.o.Seen != nil && b.o.Seen.InBank(h) {
			return
		}
		r := b.family(it, rng, gr, canon, h, t, first, firstSol, minimal)
		if kept == 0 {
			res = r
		} else {
			res.More = append(res.More, r)
		}
		kept++
	}

	pz := st.Puzzle
	canon, _ := b.canon.Canon(pz.Grid)
	w.visited[Hash(canon)] = struct{}{}
	// miss is set while the walk stands on a near miss (walk.near).
	cur, er, meets, miss := pz, st.ER, false, false
	// gradeNb grades a neighbour, canon, into w.gr within bd, regrading it
	// in full where the walk may move to it: a near miss stopped early.
	// It reports whether w.gr is a full grade; above, when it is not,
	// whether the grade stopped above bd's ceiling.
	gradeNb := func(gr *grade.Grade, canon solve.Grid, bd grade.Bounds) (full, above bool, err error) {
		if full, err = b.grader.GradeWithinContext(ctx, canon, gr, bd); full || err != nil {
			return full, false, err
		}
		// A grade stopped below the floor finished with singles, at an
		// ER below it; above, it stopped at a step above the ceiling or
		// before techniques rated above it all (Unfinished).
		above = bd.Ceiling > 0 && (gr.Unfinished || gr.ER > bd.Ceiling)
		if above && w.uses(gr) && (!miss && !meets || w.nearLast(gr)) {
			return true, false, b.grader.GradeIntoContext(ctx, canon, gr)
		}
		return false, above, nil
	}
	if er == 0 {
		gr := &b.gr
		var bd grade.Bounds
		if len(w.near) > 0 {
			bd = w.nearBounds(0, false)
		}
		full, _, err := gradeNb(gr, canon, bd)
		if err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: err}
		}
		er = w.aim + 1 // above aim, where a near walk wanders
		if full {
			er, meets, miss = gr.ER, b.meets(gr), w.uses(gr)
		}
		if meets {
			keep(pz, gr, pz.Minimal)
		}
	} else {
		// LoadStarts took the start's level, techniques and symmetry
		// from the target: its rating says whether it meets it.
		meets = w.distance(er) == 0
	}
	// dist is the distance the walk steers by.
	dist := func(er grade.Rating, miss bool) grade.Rating {
		if len(w.near) == 0 {
			return w.distance(er)
		}
		return w.nearDistance(er, miss)
	}
	for stall, step := 0, 0; stall < w.stall && step < w.stall*w.stalls && kept < w.most; step++ {
		stall++
		// A walk yet to meet a near miss digs afresh every other step: a
		// near miss depends on the solution grid, which moves keep, and a
		// fresh dig shows a jellyfish as often as a neighbour (1 in
		// 4,000), for two thirds of the CPU. Half the steps dug made the
		// x-cycle and jellyfish searches fastest (BenchmarkSearch, 400
		// items: 46 and 5.4 families a CPU-s; none dug: 25 and 2.3).
		var cand gen.Puzzle
		var canon solve.Grid
		if meets && w.pick {
			var n int
			if cand, canon, n = b.pick(cur, rng); n < pickNodes {
				if n >= 0 {
					stall-- // neighbours passed over are no stall
				}
				continue
			}
		} else {
			var ok bool
			if len(w.near) > 0 && !miss && !meets && rng.IntN(2) == 0 {
				var err error
				if cand, err = b.fresh(ctx, rng); err != nil {
					return Result[store.NewFamily]{Reason: Failed, Err: err}
				}
				ok = true
			} else {
				cand, ok = move[gen.Puzzle](&w.mover, cur, b.o.MinGivens, rng)
			}
			if canon, ok = b.unseen(cand, ok); !ok {
				continue
			}
		}
		bd := w.bounds(er)
		if len(w.near) > 0 {
			bd = w.nearBounds(er, miss)
		}
		full, above, err := gradeNb(&w.gr, canon, bd)
		if err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: err}
		}
		if !full {
			// A walk yet to meet a near miss wanders above the floor.
			if above && !miss && !meets && len(w.near) > 0 {
				cur, er = cand, w.aim+1
			}
			continue
		}
		m, c := b.meets(&w.gr), w.uses(&w.gr)
		if m {
			keep(cand, &w.gr, b.dig.IsMinimal(cand.Grid))
			stall = 0
		}
		nearer := c && !miss || c == miss && dist(w.gr.ER, c) < dist(er, miss)
		if nearer {
			stall = 0
		}
		// Once at the target the walk stays there, climbing when the
		// target is one to climb to; before, it moves to any neighbour no
		// further from it, and once at a near miss to near misses.
		var move bool
		if meets {
			move = m && (!w.climb || w.gr.ER >= er)
		} else {
			move = m || nearer || c == miss && dist(w.gr.ER, c) <= dist(er, miss)
		}
		if move {
			cur, er, meets, miss = cand, w.gr.ER, m, c
		}
	}
	return res
}

// pick draws pickOf neighbours of cur from rng, marks those the walk had
// not visited as visited, and returns the one whose uniqueness check
// takes the solver the most nodes (the first of equals), with its
// canonical form and that count; n is -1 when every draw failed or was
// visited.
func (b *Builder) pick(cur gen.Puzzle, rng *rand.Rand) (cand gen.Puzzle, canon solve.Grid, n int) {
	w := b.walk
	n = -1
	for range pickOf {
		c, ok := move[gen.Puzzle](&w.mover, cur, b.o.MinGivens, rng)
		cn, ok := b.unseen(c, ok)
		if !ok {
			continue
		}
		w.solver.Count(cn, 2)
		if k := w.solver.Stats().Nodes; k > n {
			cand, canon, n = c, cn, k
		}
	}
	return cand, canon, n
}

// unseen returns the canonical form of a neighbour c the walk drew (ok
// false: the draw failed) and reports whether the walk may grade it: its
// givens are in range and the walk has not visited its form, which it
// now has.
func (b *Builder) unseen(c gen.Puzzle, ok bool) (solve.Grid, bool) {
	if !ok || !b.o.givensOK(c.Grid) {
		return solve.Grid{}, false
	}
	cn, _ := b.canon.Canon(c.Grid)
	h := Hash(cn)
	if _, seen := b.walk.visited[h]; seen {
		return solve.Grid{}, false
	}
	b.walk.visited[h] = struct{}{}
	return cn, true
}

// givensOK reports whether p's givens are in the options' range, when
// they set one.
func (o *BuildOptions) givensOK(p solve.Grid) bool {
	n := p.Givens()
	return o.MinGivens == 0 || n >= o.MinGivens && n <= o.MaxGivens
}

// mover is what a walk moves by: gen.Mover on 9x9, gen.SizedMover on the
// other sizes.
type mover[P any] interface {
	Swap(pz P, k int, rng *rand.Rand) (P, bool)
	Redig(pz P, k, minGivens int, rng *rand.Rand) P
}

// move returns a neighbour of cur, drawn from rng, or false when the
// move drawn found none. Re-digs reach the target faster than swaps, for
// their cost (BenchmarkSearch): five in eight moves are re-digs.
func move[P any](m mover[P], cur P, minGivens int, rng *rand.Rand) (P, bool) {
	switch k := rng.IntN(8); {
	case k < 2:
		return m.Swap(cur, 1, rng)
	case k < 3:
		return m.Swap(cur, 2, rng)
	default:
		return m.Redig(cur, 2+rng.IntN(2), minGivens, rng), true
	}
}
