package server_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"sudokubank/grade"
	"sudokubank/server"
	"sudokubank/solve"
	"sudokubank/store"
)

// aicPuzzle is a 9x9 puzzle whose hint path holds X-chain and AIC steps
// (grade/testdata/grades.golden).
const aicPuzzle = "4.1.........935...6....1..8.1..8..5.......4.7.69.............8....4..96...279...5"

// MustChainFamily returns a family of aicPuzzle, as a bank stores it.
func MustChainFamily(tb testing.TB) store.NewFamily {
	tb.Helper()
	p, err := solve.Parse(aicPuzzle)
	if err != nil {
		tb.Fatal(err)
	}
	gr, err := grade.New().Grade(p)
	if err != nil {
		tb.Fatal(err)
	}
	var slugs []string
	for _, st := range gr.Path {
		slugs = append(slugs, st.Technique.Slug())
	}
	path, err := store.EncodePath(slugs)
	if err != nil {
		tb.Fatal(err)
	}
	f := store.NewFamily{Family: store.Family{Canon: aicPuzzle, ER: int(gr.ER), EP: int(gr.EP), ED: int(gr.ED),
		Level: int(gr.Level), Score: gr.Score, SearchNodes: gr.Metrics.SearchNodes, Givens: gr.Metrics.Givens,
		MinRowCol: gr.Metrics.MinRowCol, Hardest: gr.Hardest.Slug(), Path: path, Source: "test"}}
	f.Puzzles = []store.Puzzle{{Puzzle: aicPuzzle, Solution: gr.Solution.String()}}
	return f
}

// A chain step's hint carries its links, in order: each starts where the
// one before ends, alternates on and off nodes (strong from off, weak
// from on), stays in the step's cells, and ends in what the step
// concludes or where it began. Other steps have no "links" key at all.
func TestHintLinks(t *testing.T) {
	fam := MustChainFamily(t)
	ts := MustServer(t, MustBank(t, append(MustFixture(t)[1:4], fam)), server.Options{})
	var pg page
	MustGet(t, ts.URL+"/api/v1/puzzles?level=evil&limit=10", &pg)
	id := int64(0)
	for _, p := range pg.Puzzles {
		if p.Puzzle == aicPuzzle {
			id = p.ID
		}
	}
	if id == 0 {
		t.Fatalf("the chain puzzle is not in the bank: %+v", pg.Puzzles)
	}
	type node struct {
		Row, Col, Digit int
		On              bool
	}
	var h struct {
		Steps []json.RawMessage `json:"steps"`
	}
	MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, id), &h)
	chains := 0
	for i, raw := range h.Steps {
		var keys map[string]json.RawMessage
		var st struct {
			Technique    string
			Cells        []struct{ Row, Col int }
			Placements   []struct{ Row, Col, Digit int }
			Eliminations []struct{ Row, Col, Digit int }
			Links        []struct {
				From, To node
				Strong   bool
			}
		}
		if err := json.Unmarshal(raw, &keys); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
		tech, _ := grade.ParseTechnique(st.Technique)
		linear := tech == grade.XCycle || tech == grade.YCycle || tech == grade.XChain || tech == grade.XYChain || tech == grade.AIC
		if _, ok := keys["links"]; ok != linear {
			t.Errorf("step %d (%s): links key present %v", i+1, st.Technique, ok)
		}
		if !linear {
			continue
		}
		chains++
		ls := st.Links
		if len(ls) < 2 {
			t.Fatalf("step %d: links %+v", i+1, ls)
		}
		for j, l := range ls {
			if j > 0 && l.From != ls[j-1].To {
				t.Errorf("step %d: link %d starts at %+v, link %d ends at %+v", i+1, j+1, l.From, j, ls[j-1].To)
			}
			if l.From.On == l.To.On || l.Strong == l.From.On {
				t.Errorf("step %d: link %d %+v does not alternate", i+1, j+1, l)
			}
			for _, n := range []node{l.From, l.To} {
				in := false
				for _, c := range st.Cells {
					in = in || c.Row == n.Row && c.Col == n.Col
				}
				if !in || n.Digit < 1 || n.Digit > 9 {
					t.Errorf("step %d: link %d node %+v not in the step's cells %+v", i+1, j+1, n, st.Cells)
				}
			}
		}
		first, last := ls[0].From, ls[len(ls)-1].To
		if first == last {
			continue // a cycle
		}
		concluded := false
		for _, pl := range st.Placements {
			concluded = concluded || last.On && pl.Row == last.Row && pl.Col == last.Col && pl.Digit == last.Digit
		}
		for _, e := range st.Eliminations {
			concluded = concluded || !last.On && e.Row == last.Row && e.Col == last.Col && e.Digit == last.Digit
		}
		if !concluded || first.Row != last.Row || first.Col != last.Col || first.Digit != last.Digit {
			t.Errorf("step %d: chain from %+v to %+v concludes nothing of the step", i+1, first, last)
		}
	}
	if chains == 0 {
		t.Fatal("no chain step in the hints")
	}
}
