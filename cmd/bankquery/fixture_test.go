package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/solve"
	"sudokubank/store"
)

var fixtureFlag = flag.Bool("fixture", false, "regenerate testdata/families.jsonl with gen and grade")

// fixturePath holds the graded families the tests load into their banks:
// real puzzles, dug by gen and graded by grade, committed so that the
// tests are fast and their golden files do not move when the generator
// or the grader change. Regenerate it with go test -run TestFixture -fixture.
const fixturePath = "testdata/families.jsonl"

// fixtureEpoch is the creation time of every fixture family, so that
// the fixture is the same bytes on every regeneration.
var fixtureEpoch = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// TestFixture regenerates the fixture with -fixture, and otherwise checks
// that it loads and is what the tests expect: every level present, and
// several variants for some families.
func TestFixture(t *testing.T) {
	if *fixtureFlag {
		writeFixture(t, fixturePath, 30)
	}
	fams := MustReadFixture(t)
	var levels [6]int
	variants := 0
	for _, f := range fams {
		levels[f.Level]++
		variants += len(f.Puzzles)
	}
	for l := 1; l <= 5; l++ {
		if levels[l] == 0 {
			t.Errorf("fixture has no family of level %d", l)
		}
	}
	if variants <= len(fams) {
		t.Errorf("fixture has %d puzzles for %d families, want variants", variants, len(fams))
	}
}

// writeFixture digs and grades perLevel families of each level: the
// paper's five profiles and minimal digs in turn, with a symmetry now and
// then, and stores the canonical form plus up to three random transforms
// of it as variants.
func writeFixture(tb testing.TB, path string, perLevel int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 2026))
	var d gen.Digger
	g := grade.New()
	syms := []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.NoSymmetry, gen.Mirror, gen.Rot90}
	var out strings.Builder
	seen := map[string]bool{}
	var levels [6]int
	for i := 0; len(seen) < 5*perLevel; i++ {
		if i > 200000 {
			tb.Fatalf("after %d puzzles, families per level %v, want %d each", i, levels[1:], perLevel)
		}
		p := gen.PaperLevels[i%5]
		p.Symmetry = syms[(i/5)%len(syms)]
		if i%2 == 1 {
			p = gen.MinimalProfile(p.Symmetry)
		}
		pz := d.Generate(p, rng)
		gr, err := g.Grade(pz.Grid)
		if err != nil {
			tb.Fatalf("grade %s: %v", pz.Grid, err)
		}
		if levels[gr.Level] >= perLevel {
			continue
		}
		canon, tr := gen.Canon(pz.Grid)
		if seen[canon.String()] {
			continue
		}
		seen[canon.String()] = true
		levels[gr.Level]++
		csol := tr.Apply(pz.Solution)
		source := "gen"
		if i%11 == 10 {
			source = "fixture-import"
		}
		f := store.NewFamily{Family: store.Family{
			Canon: canon.String(), ER: int(gr.ER), EP: int(gr.EP), ED: int(gr.ED),
			Level: int(gr.Level), Score: gr.Score, SearchNodes: gr.Metrics.SearchNodes,
			Givens: pz.Grid.Givens(), MinRowCol: gen.MinRowColGivens(pz.Grid),
			Hardest: gr.Hardest.Slug(), Techniques: gr.UseCounts(), Path: grade.Slugs(gr.Path),
			Minimal: pz.Minimal || gen.IsMinimal(pz.Grid), Symmetry: gen.DetectSymmetry(pz.Grid).String(),
			Source: source, Seed: uint64(i), CreatedAt: fixtureEpoch,
		}}
		f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: canon.String(), Solution: csol.String(), Transform: gen.Identity().String()})
		for v := 0; v < i%4; v++ {
			t := gen.RandomTransform(rng)
			f.Puzzles = append(f.Puzzles, store.Puzzle{
				Puzzle: t.Apply(canon).String(), Solution: t.Apply(csol).String(), Transform: t.String(),
			})
		}
		b, err := json.Marshal(f)
		if err != nil {
			tb.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// MustReadFixture reads the committed fixture families.
func MustReadFixture(tb testing.TB) []store.NewFamily {
	tb.Helper()
	f, err := os.Open(fixturePath)
	if err != nil {
		tb.Fatalf("open fixture: %v (regenerate with go test -run TestFixture -fixture)", err)
	}
	defer f.Close()
	var fams []store.NewFamily
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var nf store.NewFamily
		if err := json.Unmarshal(sc.Bytes(), &nf); err != nil {
			tb.Fatalf("%s:%d: %v", fixturePath, line, err)
		}
		fams = append(fams, nf)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return fams
}

// MustBank writes the fixture families into a new bank in a temporary
// directory and returns its path; the bank is closed, as the command
// opens it itself.
func MustBank(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "puzzles.db")
	MustWriteBank(tb, path, MustReadFixture(tb))
	return path
}

// RunsForm returns the fixture families as bankgen writes them now: the
// fixture holds the path and counts as banks written before November 2026
// do (a list of slugs, and family_techniques rows), and a bank written
// since holds the same in one path of the runs form (store.EncodePath).
func RunsForm(tb testing.TB, fams []store.NewFamily) []store.NewFamily {
	tb.Helper()
	out := make([]store.NewFamily, len(fams))
	for i, f := range fams {
		steps, err := store.PathSteps(f.Path)
		if err != nil {
			tb.Fatal(err)
		}
		// The list form leaves out the brute-force that ends an unfinished
		// solve; its counts include it.
		if f.Techniques[grade.BruteForce.Slug()] > 0 {
			steps = append(steps, grade.BruteForce.Slug())
		}
		counts := map[string]int{}
		for _, s := range steps {
			counts[s]++
		}
		if !maps.Equal(counts, f.Techniques) {
			tb.Fatalf("fixture family %d: path counts %v, stored counts %v", i, counts, f.Techniques)
		}
		if f.Path, err = store.EncodePath(steps); err != nil {
			tb.Fatal(err)
		}
		f.Techniques = nil
		out[i] = f
	}
	return out
}

// MustWriteBank creates the bank at path with the given families.
func MustWriteBank(tb testing.TB, path string, fams []store.NewFamily) {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.WriteBatch(ctx, fams); err != nil {
		tb.Fatalf("write fixture: %v", err)
	}
}

// mustGrid parses a grid or fails the test.
func mustGrid(tb testing.TB, s string) solve.Grid {
	tb.Helper()
	g, err := solve.Parse(s)
	if err != nil {
		tb.Fatal(fmt.Errorf("parse %q: %w", s, err))
	}
	return g
}
