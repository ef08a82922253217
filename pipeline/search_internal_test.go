package pipeline

import (
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
)

// TestSearchBounds checks the target's ratings a walk steers by, and the
// bounds it grades a neighbour within: those no further from the target
// than where it stands.
func TestSearchBounds(t *testing.T) {
	tests := []struct {
		name        string
		o           BuildOptions
		floor, ceil grade.Rating
		er          grade.Rating
		want        grade.Bounds
	}{
		{"RatingBelow", BuildOptions{RatingMin: 90}, 90, 0, 72, grade.Bounds{Floor: 72}},
		{"RatingAt", BuildOptions{RatingMin: 90}, 90, 0, 95, grade.Bounds{Floor: 90}},
		{"BandAbove", BuildOptions{RatingMin: 75, RatingMax: 84}, 75, 84, 90, grade.Bounds{Floor: 69, Ceiling: 90}},
		{"XWingAbove", BuildOptions{Hardest: []grade.Technique{grade.XWing}}, 32, 32, 40, grade.Bounds{Floor: 24, Ceiling: 40}},
		{"XWingOrChainHasNoCeiling", BuildOptions{Hardest: []grade.Technique{grade.XWing, grade.AIC}}, 32, 0, 20, grade.Bounds{Floor: 20}},
		{"Evil", BuildOptions{Levels: []grade.Level{grade.Evil}}, 70, 0, 40, grade.Bounds{Floor: 40}},
		{"DifficultCeiling", BuildOptions{Levels: []grade.Level{grade.Difficult}, Uses: []grade.Technique{grade.XYWing}}, 42, 69, 50, grade.Bounds{Floor: 42, Ceiling: 69}},
		{"FarAbove", BuildOptions{RatingMax: 20, Hardest: []grade.Technique{grade.NakedSingle}}, 23, 20, 100, grade.Bounds{Floor: 0, Ceiling: 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWalk(&tt.o)
			if w.floor != tt.floor || w.ceil != tt.ceil {
				t.Errorf("floor, ceiling %v, %v; want %v, %v", w.floor, w.ceil, tt.floor, tt.ceil)
			}
			if got := w.bounds(tt.er); got != tt.want {
				t.Errorf("bounds(%v) = %+v, want %+v", tt.er, got, tt.want)
			}
		})
	}
}

// TestSearchClimbs checks which targets' walks climb at the target:
// those with no ceiling and a floor no fresh dig's walk reaches.
func TestSearchClimbs(t *testing.T) {
	tests := []struct {
		name string
		o    BuildOptions
		want bool
	}{
		{"Rating9", BuildOptions{RatingMin: 90}, false},
		{"Rating95", BuildOptions{RatingMin: 95}, true},
		{"Rating10", BuildOptions{RatingMin: 100}, true},
		{"Band", BuildOptions{RatingMin: 95, RatingMax: 100}, false},
		{"XWing", BuildOptions{Hardest: []grade.Technique{grade.XWing}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newWalk(&tt.o).climb; got != tt.want {
				t.Errorf("climb = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSearchNearBounds checks the bounds a walk for a hardest technique
// grades a neighbour within: up to its aim while it looks for a near
// miss, whatever the rating it stands on, and no further from the target
// than a near miss it stands on.
func TestSearchNearBounds(t *testing.T) {
	xCycle := BuildOptions{Hardest: []grade.Technique{grade.XCycle}}
	jellyfish := BuildOptions{Hardest: []grade.Technique{grade.Jellyfish}}
	tests := []struct {
		name string
		o    BuildOptions
		aim  grade.Rating
		er   grade.Rating
		miss bool
		want grade.Bounds
	}{
		{"XCycleFresh", xCycle, 66, 0, false, grade.Bounds{Floor: 0, Ceiling: 66}},
		{"XCycleWanders", xCycle, 66, 72, false, grade.Bounds{Floor: 65, Ceiling: 66}},
		{"XCycleBelow", xCycle, 66, 45, false, grade.Bounds{Floor: 45, Ceiling: 66}},
		{"XCycleMissAbove", xCycle, 66, 72, true, grade.Bounds{Floor: 59, Ceiling: 72}},
		{"XCycleMissAt", xCycle, 66, 66, true, grade.Bounds{Floor: 65, Ceiling: 66}},
		{"JellyfishMissAbove", jellyfish, 52, 71, true, grade.Bounds{Floor: 33, Ceiling: 71}},
		{"JellyfishWanders", jellyfish, 52, 90, false, grade.Bounds{Floor: 52, Ceiling: 52}},
		{"BruteForce", BuildOptions{Hardest: []grade.Technique{grade.BruteForce}}, grade.UnfinishedER, 90, false, grade.Bounds{Floor: 0, Ceiling: grade.UnfinishedER}},
		{"BandCapsAim", BuildOptions{Hardest: []grade.Technique{grade.AIC}, RatingMax: 74}, 74, 80, true, grade.Bounds{Floor: 64, Ceiling: 80}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWalk(&tt.o)
			if w.aim != tt.aim || len(w.near) != len(tt.o.Hardest) {
				t.Errorf("aim %v, near %v; want %v, %v", w.aim, w.near, tt.aim, tt.o.Hardest)
			}
			if got := w.nearBounds(tt.er, tt.miss); got != tt.want {
				t.Errorf("nearBounds(%v, %v) = %+v, want %+v", tt.er, tt.miss, got, tt.want)
			}
		})
	}
	if w := newWalk(&BuildOptions{RatingMin: 90}); len(w.near) != 0 {
		t.Errorf("a rating target's walk has near misses %v", w.near)
	}
}

// TestSearchPicks checks which walks pick the neighbours they grade at
// the target, and stay there longer: those of a 9x9 rating target of
// pickFloor or more, below climbFloor.
func TestSearchPicks(t *testing.T) {
	tests := []struct {
		name       string
		o          BuildOptions
		pick, long bool
	}{
		{"Rating9", BuildOptions{RatingMin: 90}, true, true},
		{"Rating85", BuildOptions{RatingMin: 85}, true, true},
		{"Band", BuildOptions{RatingMin: 90, RatingMax: 94}, true, true},
		{"Climbs", BuildOptions{RatingMin: 95}, true, false},
		{"Rating8", BuildOptions{RatingMin: 80}, false, false},
		{"Rating9Uses", BuildOptions{RatingMin: 90, Uses: []grade.Technique{grade.XWing}}, false, false},
		{"XCycle", BuildOptions{Hardest: []grade.Technique{grade.XCycle}}, false, false},
		{"Nine", BuildOptions{RatingMin: 90, Shape: grid.Nine}, true, true},
		{"Sixteen", BuildOptions{RatingMin: 90, Shape: grid.Shape{N: 16, BoxRows: 4, BoxCols: 4}}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWalk(&tt.o)
			if w.pick != tt.pick {
				t.Errorf("pick = %v, want %v", w.pick, tt.pick)
			}
			stalls, most := maxWalkStalls, maxWalkFamilies
			if tt.long {
				stalls, most = pickWalkStalls, pickWalkFamilies
			}
			if w.stalls != stalls || w.most != most {
				t.Errorf("stalls, most %d, %d; want %d, %d", w.stalls, w.most, stalls, most)
			}
		})
	}
}

// TestPickMostNodes checks that pick returns, of the neighbours it
// draws, the first with the most solver nodes, and marks every one drawn
// as visited: the same draws, made again, find the same.
func TestPickMostNodes(t *testing.T) {
	// Rated 9.0 (starts_test.go's symPuzzles).
	g := solve.GridOf("34..5..7...2....65.....93....17......9.8.5.3......26....85.....16....5...5..7..12")
	sol, ok := solve.Solve(g)
	if !ok {
		t.Fatal("no solution")
	}
	cur := gen.Puzzle{Grid: g, Solution: sol, Symmetry: gen.NoSymmetry}
	b := NewBuilder(BuildOptions{RatingMin: 90})
	var m gen.Mover
	var s solve.Solver
	picked := 0
	for seed := range uint64(20) {
		clear(b.walk.visited)
		cand, canon, n := b.pick(cur, rand.New(rand.NewPCG(seed, 1)))
		// The draws again, on their own.
		rng := rand.New(rand.NewPCG(seed, 1))
		want, seen := -1, map[uint64]bool{}
		var wantCanon solve.Grid
		for range pickOf {
			c, ok := move[gen.Puzzle](&m, cur, 0, rng)
			if !ok {
				continue
			}
			cn, _ := b.canon.Canon(c.Grid)
			if seen[Hash(cn)] {
				continue
			}
			seen[Hash(cn)] = true
			if _, v := b.walk.visited[Hash(cn)]; !v {
				t.Errorf("seed %d: %s drawn, not marked visited", seed, cn)
			}
			s.Count(cn, 2)
			if k := s.Stats().Nodes; k > want {
				want, wantCanon = k, cn
			}
		}
		if n != want || canon != wantCanon {
			t.Fatalf("seed %d: picked %s with %d nodes, want %s with %d", seed, canon, n, wantCanon, want)
		}
		if n >= 0 {
			picked++
			if c, _ := b.canon.Canon(cand.Grid); c != canon || cand.Solution != sol {
				t.Errorf("seed %d: the neighbour %s is not the canonical form's %s", seed, cand.Grid, canon)
			}
		}
	}
	if picked == 0 {
		t.Error("no draw found a neighbour")
	}
}
