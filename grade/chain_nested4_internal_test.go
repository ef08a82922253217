package grade

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

const chainNested4FixtureFile = "testdata/chains/nested4.txt"

// chainNested4Sources are puzzles of ../shared/data/puzzles/
// puzzles5_forum_hardest_1905_11+.txt (lines 48719, 48763 "Golden
// Nugget", 48766, 48737: among the last hundred lines, the hardest for
// SE) whose path needs nested level 4: at some position levels 2 and 3
// find nothing. No puzzle of dev_se needs level 4, and none of the last
// 400 lines of that file was found to need level 5. The first is the
// quickest to chain and is the one the normal suite runs.
var chainNested4Sources = []string{
	"........1.....2.3....45.6....1....72..6...8...9..8.4....7..3...5..89....96.5.....",
	".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
	"12.3.....4.5...6...7.....2.6..1..3....453.........8..9...45.1.........8......2..7",
	"98.7.....7...6.9....5....4..9.3..8....2.....1.....4.5..3..7.6.....8...7......1..2",
}

// chainNested4Fixture is one line of nested4.txt.
type chainNested4Fixture struct {
	puzzle solve.Grid
	pos    Position
	below  int
	step   string
}

// chainNested4Fixtures reads nested4.txt: all its lines with -nested,
// else the first only (each takes about half a second to chain, twice
// that with the exhaustive check).
func chainNested4Fixtures(t *testing.T) []chainNested4Fixture {
	t.Helper()
	var out []chainNested4Fixture
	for _, fs := range chainFixtureLines(t, chainNested4FixtureFile, 4) {
		var x chainNested4Fixture
		var err error
		if x.puzzle, err = solve.Parse(fs[0]); err != nil {
			t.Fatal(err)
		}
		if x.pos, err = chainParsePosition(fs[1]); err != nil {
			t.Fatal(err)
		}
		if x.below, err = strconv.Atoi(fs[2]); err != nil {
			t.Fatal(err)
		}
		x.step = fs[3]
		out = append(out, x)
		if !*pinnedNested {
			break
		}
	}
	if len(out) == 0 {
		t.Fatal("no fixtures")
	}
	return out
}

// chainCheckAgainst fails unless pos is a position of puzzle (its givens
// kept, every cell holding the solution's digit as value or candidate)
// and st agrees with the puzzle's solution.
func chainCheckAgainst(t *testing.T, puzzle solve.Grid, pos *Position, st Step) {
	t.Helper()
	sol, ok := solve.Solve(puzzle)
	if !ok {
		t.Fatal("puzzle has no solution")
	}
	for c := 0; c < 81; c++ {
		if puzzle[c] != 0 && pos.Grid[c] != puzzle[c] {
			t.Fatalf("r%dc%d: given %d, position has %d", c/9+1, c%9+1, puzzle[c], pos.Grid[c])
		}
		if pos.Grid[c] != 0 {
			if pos.Grid[c] != sol[c] {
				t.Fatalf("r%dc%d holds %d, solution has %d", c/9+1, c%9+1, pos.Grid[c], sol[c])
			}
		} else if pos.Cands[c]&(1<<sol[c]) == 0 {
			t.Fatalf("r%dc%d lacks the solution's %d", c/9+1, c%9+1, sol[c])
		}
	}
	chainCheckConclusions(t, &sol, st)
	if len(st.Placements)+len(st.Eliminations) == 0 {
		t.Error("step concludes nothing")
	}
}

// TestChainNestedLevel4Fixtures replays positions where nested level 4
// is first needed (grade/testdata/chains/nested4.txt; regenerate with
// -update): levels up to 3 must find nothing, and the chainer must find
// the recorded level 4 step, which must agree with the solution.
func TestChainNestedLevel4Fixtures(t *testing.T) {
	if *chainUpdate {
		chainWriteNested4Fixtures(t)
	}
	for i, x := range chainNested4Fixtures(t) {
		t.Run(strconv.Itoa(i+1), func(t *testing.T) {
			low := chainer{maxLevel: x.below}
			if st, ok := low.next(&x.pos); ok {
				t.Errorf("with nesting up to %d: got %s, want no step", x.below, chainFormatStep(st))
			}
			var c chainer
			st, ok := c.next(&x.pos)
			if !ok {
				t.Fatalf("no step, want %s", x.step)
			}
			if want := NestedForcingChains2 + Technique(x.below-1); st.Technique != want {
				t.Errorf("technique %s, want %s", st.Technique, want)
			}
			if got := chainFormatStep(st); got != x.step {
				t.Errorf("got  %s\nwant %s", got, x.step)
			}
			chainCheckStep(t, &x.pos, st)
			chainCheckAgainst(t, x.puzzle, &x.pos, st)
		})
	}
}

// TestChainNestedLevel4Bounds runs the nested levels on the nested4.txt
// positions with the bounds of the inner producers off (exhaustive).
// The levels up to the recorded one that finds nothing must still find
// nothing: the bounds only skip searches that cannot conclude, so a step
// they find here would be one the bounded chainer missed. The level
// after it, the one the fixture was recorded at, must find the recorded
// step.
func TestChainNestedLevel4Bounds(t *testing.T) {
	for i, x := range chainNested4Fixtures(t) {
		t.Run(strconv.Itoa(i+1), func(t *testing.T) {
			for level := 2; level <= x.below+1; level++ {
				e := &chainEngine{exhaustive: true}
				var h chainHints
				h.reset(&x.pos.Cands)
				e.memo.reset()
				tech := NestedForcingChains2 + Technique(level-2)
				e.multipleChains(&h, &x.pos.Cands, chainMode{multiple: true, dynamic: true, level: level, tech: tech})
				switch {
				case level <= x.below:
					if h.found() {
						t.Errorf("exhaustive level %d found %s, want nothing", level, chainFormatStep(h.step()))
					}
				case !h.found():
					t.Fatalf("exhaustive level %d found nothing, want %s", level, x.step)
				default:
					if got := chainFormatStep(h.step()); got != x.step {
						t.Errorf("exhaustive: %s\nrecorded:   %s", got, x.step)
					}
				}
			}
		})
	}
}

// chainWriteNested4Fixtures grades each of chainNested4Sources and
// records the position before the first step of nested level 4 or 5 on
// its path, with the step the chainer finds there (no ceiling).
func chainWriteNested4Fixtures(t *testing.T) {
	var out []string
	for _, src := range chainNested4Sources {
		g, err := solve.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		var gr Grader
		gr.st.load(g)
		found := false
		for gr.st.left > 0 && !found {
			pos := gr.st.p
			st, ok := gr.next()
			if !ok {
				t.Fatalf("%s: unfinished", src)
			}
			if st.Technique >= NestedForcingChains4 {
				found = true
				var c chainer
				want, _ := c.next(&pos)
				level := int(st.Technique-NestedForcingChains2) + 2
				out = append(out, fmt.Sprintf("%s %s %d %s", src, chainFormatPosition(&pos), level-1, chainFormatStep(want)))
			}
			gr.chains.ceiling = max(gr.chains.ceiling, st.Rating)
			gr.st.apply(&st)
		}
		if !found {
			t.Fatalf("%s: no step of level 4 or 5", src)
		}
	}
	body := "# Positions where nested level 4 is first needed on the grader's path of\n" +
		"# puzzles of ../shared/data/puzzles/puzzles5_forum_hardest_1905_11+.txt\n" +
		"# (see chainNested4Sources): PUZZLE POSITION DEEPEST-LEVEL-THAT-FINDS-NOTHING STEP.\n" +
		"# STEP is what the chainer found when this file was written, not a hand-made\n" +
		"# answer; the test checks it against the puzzle's solution.\n" +
		"# Regenerate with: go test ./grade -run TestChainNestedLevel4Fixtures -update\n" +
		strings.Join(out, "\n") + "\n"
	if err := os.WriteFile(chainNested4FixtureFile, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d level 4 fixtures", len(out))
}
