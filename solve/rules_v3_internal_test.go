package solve

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// v3Puzzles returns the puzzles the assembly versions are checked on:
// testdata/minimal.txt and, where the shared sets are present, the first
// puzzles of each.
func v3Puzzles(t *testing.T) []Grid {
	t.Helper()
	files := []string{filepath.Join("testdata", "minimal.txt")}
	for _, name := range []string{"puzzles2_17_clue.txt", "puzzles3_magictour_top1465.txt",
		"puzzles5_forum_hardest_1905_11+.txt", "puzzles7_serg_benchmark.txt"} {
		files = append(files, filepath.Join("..", "..", "shared", "data", "puzzles", name))
	}
	var gs []Grid
	for i, file := range files {
		data, err := os.ReadFile(file)
		if i > 0 && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, line := range strings.Split(string(data), "\n") {
			if len(line) < 81 || i > 0 && n == 300 {
				continue
			}
			g, err := Parse(line[:81])
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			gs = append(gs, g)
			n++
		}
	}
	return gs
}

// TestV3MatchesGo checks the assembly versions of rules and bivalueKey
// (rules_amd64.s) against the Go functions they are built from, on every
// position along random paths of the search from each puzzle: the same
// result, the same position after rules, the same key. The paths pick
// random candidates, so that they also reach contradictions.
func TestV3MatchesGo(t *testing.T) {
	if !v3Supported {
		t.Skip("no assembly versions on this machine")
	}
	defer func(old bool) { useV3 = old }(useV3)
	useV3 = false // the walk itself runs the Go functions
	rng := rand.New(rand.NewPCG(5, 6))
	rulesChecked, keysChecked := 0, 0
	for _, g := range v3Puzzles(t) {
		var root board
		if !root.load(&g) {
			t.Fatalf("%s: does not load", g)
		}
		for range 3 {
			s := root
			for {
				a, b := s, s
				okA, okB := a.rules(), rulesV3(&b)
				if okA != okB || okA && a != b {
					t.Fatalf("%s: rules gives %v, rulesV3 %v, from the position %+v", g, okA, okB, s)
				}
				rulesChecked++
				var biv [3]uint32
				if !s.propagate(&biv) || s.solved() {
					break
				}
				for _, offer := range [][3]uint32{biv, {biv[0] & rng.Uint32(), biv[1] & rng.Uint32(), biv[2] & rng.Uint32()}} {
					if got, want := bivalueKeyV3(&s, &offer), s.bivalueKey(&offer); got != want {
						t.Fatalf("%s: bivalueKeyV3 gives %d, bivalueKey %d, on %+v with %v", g, got, want, s, offer)
					}
					keysChecked++
				}
				bb, c, m := s.branch(&biv)
				for k := rng.IntN(bits.OnesCount32(m)); k > 0; k-- {
					m &= m - 1
				}
				s.place(bb, bits.TrailingZeros32(m), c)
			}
		}
	}
	if rulesChecked < 1000 || keysChecked < 1000 {
		t.Fatalf("only %d positions for rules and %d for bivalueKey", rulesChecked, keysChecked)
	}
}

// TestV3Generated checks that rules_amd64.s is what rules_asm_gen.go
// writes from the Go functions, when the go command is the release that
// wrote it (its first line names it): another release may compile them
// differently, and TestV3MatchesGo still checks the behaviour.
func TestV3Generated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package and runs the generator")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	got, err := os.ReadFile("rules_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	version, err := exec.Command(goCmd, "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(got, []byte("\n"))
	if v := strings.TrimSpace(string(version)); !bytes.Contains(first, []byte(" "+v+" ")) {
		t.Skipf("rules_amd64.s was written by another Go release than %s: %s", v, first)
	}
	out := filepath.Join(t.TempDir(), "rules_amd64.s")
	cmd := exec.Command(goCmd, "run", "rules_asm_gen.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run rules_asm_gen.go: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("rules_amd64.s differs from what rules_asm_gen.go writes: run go generate ./solve")
	}
}
