package grade

import (
	"bufio"
	"flag"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

var chainUpdate = flag.Bool("update", false, "rewrite the golden files: grade/testdata/chains/steps.txt (from ../shared/data) and grade/testdata/grades.golden")

const chainFixtureFile = "testdata/chains/steps.txt"

// chainFormatPosition writes a position as the 81 cells, each its placed
// digit or its candidates in brackets, separated by commas.
func chainFormatPosition(p *Position) string {
	var b strings.Builder
	for c := 0; c < 81; c++ {
		if c > 0 {
			b.WriteByte(',')
		}
		if p.Grid[c] != 0 {
			b.WriteByte('0' + p.Grid[c])
			continue
		}
		b.WriteByte('[')
		for d := 1; d <= 9; d++ {
			if p.Cands[c]&(1<<d) != 0 {
				b.WriteByte('0' + byte(d))
			}
		}
		b.WriteByte(']')
	}
	return b.String()
}

// chainParsePosition reads what chainFormatPosition writes.
func chainParsePosition(s string) (Position, error) {
	var p Position
	fs := strings.Split(s, ",")
	if len(fs) != 81 {
		return p, fmt.Errorf("%d cells, want 81", len(fs))
	}
	for c, f := range fs {
		if strings.HasPrefix(f, "[") {
			for _, r := range strings.Trim(f, "[]") {
				p.Cands[c] |= 1 << (r - '0')
			}
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > 9 {
			return p, fmt.Errorf("cell %d: %q", c, f)
		}
		p.Grid[c] = uint8(v)
	}
	return p, nil
}

// chainFormatStep writes what a step concludes, sorted.
func chainFormatStep(s Step) string {
	var out []string
	for _, pl := range s.Placements {
		out = append(out, fmt.Sprintf("r%dc%d=%d", pl.Cell/9+1, pl.Cell%9+1, pl.Digit))
	}
	for _, el := range s.Eliminations {
		out = append(out, fmt.Sprintf("r%dc%d-%d", el.Cell/9+1, el.Cell%9+1, el.Digit))
	}
	sort.Strings(out)
	return fmt.Sprintf("%s %v %s", s.Technique.Slug(), s.Rating, strings.Join(out, ";"))
}

// TestChainFixtures replays the committed positions: the chainer must
// find the recorded technique, rating and conclusions, and every
// conclusion must agree with the puzzle's solution.
func TestChainFixtures(t *testing.T) {
	if *chainUpdate {
		chainWriteFixtures(t)
	}
	var c chainer
	n := 0
	for _, fs := range chainFixtureLines(t, chainFixtureFile, 2) {
		want := fs[1]
		p, err := chainParsePosition(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			st, ok := c.next(&p)
			if strings.HasPrefix(want, "none") {
				// Needs nesting deeper than chainMaxNesting: must not fire.
				if ok {
					t.Errorf("got %s, want no step", chainFormatStep(st))
				}
				return
			}
			if !ok {
				t.Fatalf("no step, want %s", want)
			}
			if got := chainFormatStep(st); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			chainCheckStep(t, &p, st)
		})
	}
	if n == 0 {
		t.Fatal("no fixtures")
	}
}

// chainFixtureLines returns the lines of a fixture file that are neither
// blank nor comments ('#'), each split at single spaces into n fields,
// the last keeping the rest; it fails on a line with fewer.
func chainFixtureLines(t testing.TB, path string, n int) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var out [][]string
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.SplitN(line, " ", n)
		if len(fs) != n {
			t.Fatalf("%s: bad line %q", path, line)
		}
		out = append(out, fs)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// chainCheckStep fails if a step contradicts the solution of p.
func chainCheckStep(t *testing.T, p *Position, st Step) {
	t.Helper()
	g := p.Grid
	for c := 0; c < 81; c++ {
		if g[c] == 0 && bits.OnesCount16(p.Cands[c]) == 1 {
			g[c] = uint8(bits.TrailingZeros16(p.Cands[c]))
		}
	}
	sol, ok := solve.Solve(g)
	if !ok {
		t.Fatal("position has no solution")
	}
	chainCheckConclusions(t, &sol, st)
}

// chainCheckConclusions fails for each placement of st that is not the
// solution's digit and each elimination that is.
func chainCheckConclusions(t *testing.T, sol *solve.Grid, st Step) {
	t.Helper()
	for _, pl := range st.Placements {
		if sol[pl.Cell] != pl.Digit {
			t.Errorf("places %d in r%dc%d, solution has %d", pl.Digit, pl.Cell/9+1, pl.Cell%9+1, sol[pl.Cell])
		}
	}
	for _, el := range st.Eliminations {
		if sol[el.Cell] == el.Digit {
			t.Errorf("eliminates the solution %d from r%dc%d", el.Digit, el.Cell/9+1, el.Cell%9+1)
		}
	}
}

// chainWriteFixtures grades puzzles of dev_se.txt with the driver and
// keeps, for each technique, the first few positions it was used on.
func chainWriteFixtures(t *testing.T) {
	lines := chainTestData(t)
	const perTech = 3
	got := map[Technique]int{}
	var out []string
	var c chainer
	var cur Position
	chainTestTrace = func(p *Position) { cur = *p }
	defer func() { chainTestTrace = nil }()
	for _, l := range lines {
		if l.er < 65 || l.src == "h11" {
			continue
		}
		full := 0
		for _, n := range got {
			if n >= perTech {
				full++
			}
		}
		if full == 9 {
			break
		}
		res := chainTestGrade(l.g, &c)
		if res.wrong || len(res.steps) == 0 {
			continue
		}
		// Re-run to the first step of each technique, recording the
		// position the chainer saw.
		var c2 chainer
		seen := map[Technique]bool{}
		chainTestTrace = func(p *Position) {
			cur = *p
			st, _ := c2.next(&cur)
			if seen[st.Technique] || got[st.Technique] >= perTech {
				return
			}
			seen[st.Technique] = true
			got[st.Technique]++
			out = append(out, fmt.Sprintf("# %s %s, ER %v\n%s %s", l.src, l.g, l.er, chainFormatPosition(p), chainFormatStep(st)))
		}
		chainTestGrade(l.g, &c)
		chainTestTrace = nil
	}
	if err := os.MkdirAll(filepath.Dir(chainFixtureFile), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "# Positions handed to the chainer by the test driver, and the step it must\n" +
		"# find. Regenerate with: go test ./grade -run TestChainFixtures -update\n" +
		strings.Join(out, "\n") + "\n"
	if err := os.WriteFile(chainFixtureFile, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d fixtures: %v", len(out), got)
}
