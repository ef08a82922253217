package grade

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

const chainNestedFixtureFile = "testdata/chains/nested.txt"

// chainNestedSource is an h11 puzzle of dev_se (skfr ER 10.9) whose path
// needs nested levels 2 and 3.
const chainNestedSource = "98.7..6....5..........5..4.8..6..7...3...2.....4.3...21......76.7.1....9..8...1.."

// TestChainNestedFixtures replays positions from the path of
// chainNestedSource where nested forcing chains are first needed. Each
// line names the deepest level that must find nothing and the step the
// chainer must find with every level allowed (grade/testdata/chains/
// nested.txt; regenerate with -update).
func TestChainNestedFixtures(t *testing.T) {
	if *chainUpdate {
		chainWriteNestedFixtures(t)
	}
	n := 0
	for _, fs := range chainFixtureLines(t, chainNestedFixtureFile, 3) {
		p, err := chainParsePosition(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		below, err := strconv.Atoi(fs[1])
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			// Must not fire: every level below the one needed.
			low := chainer{maxLevel: below}
			if st, ok := low.next(&p); ok {
				t.Errorf("with nesting up to %d: got %s, want no step", below, chainFormatStep(st))
			}
			// Must fire, with the recorded step.
			var c chainer
			st, ok := c.next(&p)
			if !ok {
				t.Fatalf("no step, want %s", fs[2])
			}
			if got := chainFormatStep(st); got != fs[2] {
				t.Errorf("got  %s\nwant %s", got, fs[2])
			}
			chainCheckStep(t, &p, st)
		})
	}
	if n == 0 {
		t.Fatal("no fixtures")
	}
}

// chainWriteNestedFixtures grades chainNestedSource and records the
// position before the first step of each nested level on its path.
func chainWriteNestedFixtures(t *testing.T) {
	g, err := solve.Parse(chainNestedSource)
	if err != nil {
		t.Fatal(err)
	}
	var gr Grader
	gr.st.load(g)
	seen := map[Technique]bool{}
	var out []string
	for gr.st.left > 0 {
		pos := gr.st.p
		st, ok := gr.next()
		if !ok {
			t.Fatal("unfinished")
		}
		if st.Technique >= NestedForcingChains2 && !seen[st.Technique] {
			seen[st.Technique] = true
			var c chainer
			want, _ := c.next(&pos)
			level := int(st.Technique-NestedForcingChains2) + 2
			out = append(out, fmt.Sprintf("%s %d %s", chainFormatPosition(&pos), level-1, chainFormatStep(want)))
		}
		gr.chains.ceiling = max(gr.chains.ceiling, st.Rating)
		gr.st.apply(&st)
	}
	body := "# Positions on the path of " + chainNestedSource + "\n" +
		"# where a nested level is first needed: POSITION DEEPEST-LEVEL-THAT-FINDS-NOTHING STEP.\n" +
		"# Regenerate with: go test ./grade -run TestChainNestedFixtures -update\n" +
		strings.Join(out, "\n") + "\n"
	if err := os.WriteFile(chainNestedFixtureFile, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d nested fixtures", len(out))
}

// TestChainNestedLevel4 runs level 4 (dynamic forcing chains as links),
// which no puzzle of dev_se needs, on the first fixture position: its
// conclusions must agree with the solution. (Level 5 adds nested level 2
// as links and takes about a minute here, so no test runs it.)
func TestChainNestedLevel4(t *testing.T) {
	data, err := os.ReadFile(chainNestedFixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	var pos string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			pos, _, _ = strings.Cut(l, " ")
			break
		}
	}
	p, err := chainParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	var h chainHints
	h.reset(&p.Cands)
	var e chainEngine
	e.memo.reset()
	e.multipleChains(&h, &p.Cands, chainMode{multiple: true, dynamic: true, level: 4, tech: NestedForcingChains4})
	if !h.found() {
		t.Fatal("level 4 found nothing where level 2 does")
	}
	st := h.step()
	if st.Technique != NestedForcingChains4 {
		t.Errorf("got %s", chainFormatStep(st))
	}
	t.Logf("level 4: %s", chainFormatStep(st))
	chainCheckStep(t, &p, st)
}

// TestChainNestedBounds runs levels 2 and 3 on the fixture positions
// with and without the bounds that let the inner producers skip starts,
// cells and houses (chainNestSink.chainStarts, chainEngine.staticSkips)
// and level 3 take runs of level 2 over (chainEngine.sameAtLevel3):
// every inner producer must conclude the same on every grid, and level 3
// must find the same step.
func TestChainNestedBounds(t *testing.T) {
	n := 0
	for _, fs := range chainFixtureLines(t, chainNestedFixtureFile, 3) {
		p, err := chainParsePosition(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			var memo [2]*chainNestMemo
			var step [2]string
			for i, exhaustive := range []bool{false, true} {
				e := &chainEngine{exhaustive: exhaustive}
				var h chainHints
				h.reset(&p.Cands)
				e.memo.reset()
				// The static multiple chains find nothing here; the
				// bounds of the nested level build on their runs.
				e.multipleChains(&h, &p.Cands, chainMode{multiple: true, tech: MultipleForcingChains})
				if h.found() {
					t.Fatalf("static multiple chains found %s", chainFormatStep(h.step()))
				}
				// Level 3 may take runs of level 2 over.
				e.multipleChains(&h, &p.Cands, chainMode{multiple: true, dynamic: true, level: 2, tech: NestedForcingChains2})
				h.reset(&p.Cands)
				e.multipleChains(&h, &p.Cands, chainMode{multiple: true, dynamic: true, level: 3, tech: NestedForcingChains3})
				if !h.found() {
					t.Fatal("level 3 found nothing")
				}
				memo[i], step[i] = &e.memo, chainFormatStep(h.step())
			}
			if step[0] != step[1] {
				t.Errorf("bounded: %s\nexhaustive: %s", step[0], step[1])
			}
			got, want := memo[0], memo[1]
			if len(got.grids) != len(want.grids) || len(got.outs) != len(want.outs) || len(got.hints) != len(want.hints) {
				t.Fatalf("bounded memo has %d grids, %d conclusions, %d hints; exhaustive %d, %d, %d",
					len(got.grids), len(got.outs), len(got.hints), len(want.grids), len(want.outs), len(want.hints))
			}
			for i := range got.grids {
				if got.grids[i] != want.grids[i] || got.spans[i] != want.spans[i] || got.done[i] != want.done[i] {
					t.Fatalf("grid %d: memo entries differ", i)
				}
			}
			for i := range got.outs {
				if got.outs[i] != want.outs[i] {
					t.Fatalf("conclusion %d: bounded %+v, exhaustive %+v", i, got.outs[i], want.outs[i])
				}
			}
			for i := range got.hints {
				if got.hints[i] != want.hints[i] {
					t.Fatalf("hint %d: bounded %+v, exhaustive %+v", i, got.hints[i], want.hints[i])
				}
			}
			var steps1 int
			for i := range got.done {
				if got.done[i][1] {
					steps1++
				}
			}
			t.Logf("%d grids (%d with static multiple chains), %d conclusions", len(got.grids), steps1, len(got.outs))
		})
	}
}
