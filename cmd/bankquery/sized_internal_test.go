package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sudokubank/export"
	"sudokubank/grid"
	"sudokubank/store"
)

// mustPatternRow returns a bank row of shape s as the store will give
// it: the pattern solution (BoxCols*(r%BoxRows) + r/BoxRows + c) % N + 1
// with every third cell blank. Size is left 0 when noSize, as the store
// fills rows before it stores sizes.
func mustPatternRow(tb testing.TB, s grid.Shape, noSize bool) store.Row {
	tb.Helper()
	sol := grid.New(s)
	for r := range s.N {
		for c := range s.N {
			sol.Cells[s.Cell(r, c)] = uint8((s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%s.N + 1)
		}
	}
	p := sol.Clone()
	for c := range p.Cells {
		if c%3 == 0 {
			p.Cells[c] = 0
		}
	}
	if err := sol.Check(); err != nil {
		tb.Fatal(err)
	}
	r := store.Row{ID: 7, FamilyID: 3, Puzzle: p.String(), Solution: sol.String(), Givens: p.Givens(), Level: 2,
		ER: 20, EP: 12, ED: 12, Score: 2, Hardest: "hidden-single", Symmetry: "none", Source: "gen", Size: s.N}
	if noSize {
		r.Size = 0
	}
	return r
}

func TestGridLinesSized(t *testing.T) {
	s4, _ := grid.ShapeOf(4)
	got := strings.Join(gridLines(mustPatternRow(t, s4, false).Puzzle), "\n")
	want := strings.Join([]string{
		"+-----+-----+",
		"| . 2 | 3 . |",
		"| 3 4 | . 2 |",
		"+-----+-----+",
		"| 2 . | 4 1 |",
		"| . 1 | 2 . |",
		"+-----+-----+",
	}, "\n")
	if got != want {
		t.Errorf("4x4 drawn as\n%s\nwant\n%s", got, want)
	}
	// 6x6: boxes of 2 rows by 3 columns.
	s6, _ := grid.ShapeOf(6)
	lines := gridLines(mustPatternRow(t, s6, false).Solution)
	if lines[0] != "+-------+-------+" || len(lines) != 6+4 || lines[3] != lines[0] || lines[1] != "| 1 2 3 | 4 5 6 |" {
		t.Errorf("6x6 drawn as\n%s", strings.Join(lines, "\n"))
	}
}

// TestShowSized prints rows of every size: the grids with their boxes,
// side by side while two fit 80 columns, and the hint path of the
// puzzle graded again in its own size.
func TestShowSized(t *testing.T) {
	for _, s := range grid.Shapes {
		t.Run(s.String(), func(t *testing.T) {
			r := mustPatternRow(t, s, true)
			var b bytes.Buffer
			if err := printShow(context.Background(), &b, r, store.Family{ID: 3, Canon: r.Puzzle}, nil); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			rule := gridLines(r.Puzzle)[0]
			wide := 2*len(rule)+3 > 80
			if got := strings.Count(out, rule); got != 2*(s.Bands()+1) {
				t.Errorf("%d rules %q, want 2 grids of %d\n%s", got, rule, s.Bands()+1, out)
			}
			if got := strings.Count(out, rule+"   "+rule+"\n"); (wide && got != 0) || (!wide && got != s.Bands()+1) {
				t.Errorf("%d rules side by side, want them so only where two grids fit 80 columns\n%s", got, out)
			}
			for i, l := range strings.Split(out, "\n") {
				if len(l) > 80 && strings.ContainsAny(l[:1], "+|") {
					t.Errorf("line %d is %d characters: %q", i+1, len(l), l)
				}
			}
			// The pattern leaves the 6x6 puzzle with several solutions,
			// which is what show must say then; the others grade.
			if strings.Contains(out, "could not be graded again") {
				if !strings.Contains(out, "more than one solution") {
					t.Errorf("no reason why a %s puzzle has no hint path\n%s", s, out)
				}
				return
			}
			if !strings.Contains(out, "hint path (this puzzle's solve, ") {
				t.Errorf("no hint path for a %s puzzle\n%s", s, out)
			}
			// Every empty cell is filled by a step, named in the puzzle's
			// shape with the value's symbol.
			if s != grid.Nine {
				for c := 0; c < s.Cells(); c += 3 {
					if want := s.CellName(c) + "=" + r.Solution[c:c+1]; !strings.Contains(out, want) {
						t.Errorf("no step places %s\n%s", want, out)
					}
				}
			}
		})
	}
}

// TestListWriterSized lists rows of several sizes: the size in csv and
// json, the arrays in json, and every size a line in the lines format.
func TestListWriterSized(t *testing.T) {
	var rows []store.Row
	for _, s := range grid.Shapes {
		rows = append(rows, mustPatternRow(t, s, s.N%2 == 0))
	}
	for _, f := range []export.Format{export.CSV, export.JSON, linesFormat} {
		t.Run(string(f), func(t *testing.T) {
			var b bytes.Buffer
			lw := &listWriter{w: &b, format: f}
			for _, r := range rows {
				if err := lw.add(context.Background(), r); err != nil {
					t.Fatal(err)
				}
			}
			if err := lw.flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(b.String()), "\n")
			if f == export.CSV {
				lines = lines[1:]
			}
			if len(lines) != len(rows) {
				t.Fatalf("%d lines, want %d", len(lines), len(rows))
			}
			for i, l := range lines {
				s := grid.Shapes[i]
				switch f {
				case export.CSV:
					if !strings.HasSuffix(strings.TrimSpace(l), ","+s.String()[:strings.Index(s.String(), "x")]) {
						t.Errorf("row %q does not end with size %d", l, s.N)
					}
				case export.JSON:
					var obj struct {
						Size  int   `json:"size"`
						Cells []int `json:"cells"`
					}
					if err := json.Unmarshal([]byte(l), &obj); err != nil || obj.Size != s.N || len(obj.Cells) != s.Cells() {
						t.Errorf("object %.60q...: size %d, %d cells, %v; want %d, %d", l, obj.Size, len(obj.Cells), err, s.N, s.Cells())
					}
				default:
					if l != rows[i].Puzzle {
						t.Errorf("line %q, want %q", l, rows[i].Puzzle)
					}
				}
			}
		})
	}
}
