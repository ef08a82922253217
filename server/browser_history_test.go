package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sudokubank/server"
)

// Keys of the history: Undo, and the three ways to Redo.
var (
	ctrlZ      = chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	ctrlY      = chromedp.KeyEvent("y", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	ctrlShiftZ = chromedp.KeyEvent("Z", chromedp.KeyModifiers(chromedp.ModifierCtrl|chromedp.ModifierShift))
	cmdShiftZ  = chromedp.KeyEvent("Z", chromedp.KeyModifiers(chromedp.ModifierMeta|chromedp.ModifierShift))
)

// disabled says whether the button id (Undo, Redo, a hint's) is marked
// disabled.
func disabled(t *testing.T, b *browser, id string) bool {
	t.Helper()
	return eval[string](t, b, fmt.Sprintf(`String(document.getElementById(%q)?.getAttribute("aria-disabled"))`, id)) == "true"
}

// Redo, the button, Ctrl+Y, Ctrl+Shift+Z and Cmd+Shift+Z, steps forward
// again through what Undo took back, values and pencil marks alike; a
// new change after Undo leaves nothing to redo.
func TestBrowserRedo(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	empty := p.empties()
	e1, e2 := empty[0], empty[1]
	d1, d2 := p.Solution[e1], '1'+(p.Solution[e1]-'1'+1)%9
	with := func(s string, i int, d byte) string { return s[:i] + string(d) + s[i+1:] }
	start := strings.ReplaceAll(p.Puzzle, "0", ".")
	marks := fmt.Sprintf(`[...document.querySelectorAll('%s .cands span')].filter(s => !s.className).map(s => s.textContent).join("")`, cellSel(e2/9+1, e2%9+1))
	if !disabled(t, b, "redo") {
		t.Errorf("a fresh puzzle offers Redo, or has no Redo button")
	}

	b.do(t, chromedp.Click(cellSel(e1/9+1, e1%9+1)), chromedp.KeyEvent(string(d1)), chromedp.KeyEvent(string(d2)),
		chromedp.Click(cellSel(e2/9+1, e2%9+1)), chromedp.KeyEvent(" 3 "), wait(marks+` === "3"`),
		ctrlZ, ctrlZ, ctrlZ)
	if got, m := shown(t, b), eval[string](t, b, marks); got != start || m != "" || !disabled(t, b, "undo") || disabled(t, b, "redo") {
		t.Fatalf("undone three times: the grid shows\n%s\nmarks %q, Undo disabled %v, Redo disabled %v; want the start, no marks, Redo only",
			got, m, disabled(t, b, "undo"), disabled(t, b, "redo"))
	}

	// Forward, one step at a time, by every key and the button.
	for _, tt := range []struct {
		name  string
		redo  chromedp.Action[chromedp.Void]
		grid  string
		marks string
		more  bool // whether Redo is still offered after it
	}{
		{"CtrlY", ctrlY, with(start, e1, d1), "", true},
		{"CtrlShiftZ", ctrlShiftZ, with(start, e1, d2), "", true},
		{"Button", chromedp.Click(chromedp.CSS("#redo")), with(start, e1, d2), "3", false},
		{"CmdShiftZNothingLeft", cmdShiftZ, with(start, e1, d2), "3", false},
	} {
		b.do(t, tt.redo)
		if got, m := shown(t, b), eval[string](t, b, marks); got != tt.grid || m != tt.marks || disabled(t, b, "redo") == tt.more {
			t.Errorf("%s: the grid shows\n%s\nmarks %q, Redo disabled %v; want\n%s\nmarks %q, Redo disabled %v",
				tt.name, got, m, disabled(t, b, "redo"), tt.grid, tt.marks, !tt.more)
		}
	}

	// Undo, then a change of its own (the digit cleared): what was undone
	// is gone for good.
	b.do(t, ctrlZ, ctrlZ, chromedp.Click(cellSel(e1/9+1, e1%9+1)), chromedp.KeyEvent(kb.Backspace), ctrlY)
	if got := shown(t, b); got != start || !disabled(t, b, "redo") {
		t.Errorf("Redo after a new change: the grid shows\n%s\nRedo disabled %v; want\n%s\nand nothing to redo", got, disabled(t, b, "redo"), start)
	}
}

// Undo and Redo rewind the hint panel with the grid: each leaves the
// page as it was at that step, the hint shown then included, or none.
func TestBrowserUndoHints(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	var hints struct {
		Steps []hintStep `json:"steps"`
	}
	MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, p.ID), &hints)
	if len(hints.Steps) < 3 || len(hints.Steps[0].Placements) == 0 {
		t.Fatalf("puzzle %d: %d hint steps, the first placing nothing; want 3 or more", p.ID, len(hints.Steps))
	}
	p.open(t, b, ts.URL)
	start := strings.ReplaceAll(p.Puzzle, "0", ".")
	// typed is a cell that the first step does not place, with its value.
	empty := p.empties()
	typed := empty[len(empty)-1]
	for _, pl := range hints.Steps[0].Placements {
		if (pl.Row-1)*9+pl.Col-1 == typed {
			typed = empty[0]
		}
	}
	withTyped := start[:typed] + string(p.Solution[typed]) + start[typed+1:]
	withStep := []byte(withTyped)
	for _, pl := range hints.Steps[0].Placements {
		withStep[(pl.Row-1)*9+pl.Col-1] = byte('0' + pl.Digit)
	}
	// noHint checks that the hint panel shows no step.
	noHint := func(t *testing.T, when string) {
		t.Helper()
		got := eval[[]string](t, b, `[document.getElementById("hint-text").textContent, String(document.querySelectorAll(".cell.hint, .cell.hint-target").length), String(document.getElementById("hint-apply").getAttribute("aria-disabled") === "true")]`)
		if got[0] != "" || got[1] != "0" || got[2] != "true" {
			t.Errorf("%s: the hint panel says %q, %s cells highlighted, Apply disabled %s; want no step shown", when, got[0], got[1], got[2])
		}
	}
	grid := func(t *testing.T, when, want string) {
		t.Helper()
		if got := shown(t, b); got != want {
			t.Errorf("%s: the grid shows\n%s\nwant\n%s", when, got, want)
		}
	}

	// A digit typed, then step 1 shown and applied: step 2 shows.
	typeIn(t, b, []int{typed}, string(p.Solution[typed]))
	b.do(t, chromedp.Click(chromedp.CSS("#hint-next")))
	checkHintShown(t, b, hints.Steps, 0)
	b.do(t, chromedp.Click(chromedp.CSS("#hint-apply")))
	checkHintShown(t, b, hints.Steps, 1)
	grid(t, "step 1 applied", string(withStep))

	// Undo takes back the step and shows it again, ready to apply.
	b.do(t, ctrlZ)
	checkHintShown(t, b, hints.Steps, 0)
	grid(t, "step 1 undone", withTyped)
	if disabled(t, b, "hint-apply") {
		t.Errorf("step 1 undone: Apply is disabled")
	}
	// Before the digit was typed, no hint was shown.
	b.do(t, ctrlZ)
	noHint(t, "the digit undone")
	grid(t, "the digit undone", start)
	// Redo goes forward through the same pages.
	b.do(t, ctrlY)
	checkHintShown(t, b, hints.Steps, 0)
	grid(t, "the digit redone", withTyped)
	b.do(t, chromedp.Click(chromedp.CSS("#redo")))
	checkHintShown(t, b, hints.Steps, 1)
	grid(t, "step 1 redone", string(withStep))
	// The applied step, undone, is applied again as it was.
	b.do(t, ctrlZ, chromedp.Click(chromedp.CSS("#hint-apply")))
	checkHintShown(t, b, hints.Steps, 1)
	grid(t, "step 1 applied again", string(withStep))
}

// Ctrl+Z and Ctrl+Y work wherever the focus was left on the puzzle's
// page: a click on its text or blank space moves the focus to the page's
// main region, outside the play section.
func TestBrowserUndoFocusElsewhere(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	e := p.empties()[0]
	start := strings.ReplaceAll(p.Puzzle, "0", ".")
	typed := start[:e] + string(p.Solution[e]) + start[e+1:]
	for _, tt := range []struct {
		name  string
		click string
	}{{"Title", "#p-title"}, {"Help", "#grid-help"}, {"Header", ".top"}} {
		t.Run(tt.name, func(t *testing.T) {
			typeIn(t, b, []int{e}, string(p.Solution[e]))
			b.do(t, chromedp.Click(chromedp.CSS(tt.click)), ctrlZ)
			if got := shown(t, b); got != start {
				t.Errorf("Ctrl+Z after a click on %s: the grid shows\n%s\nwant\n%s", tt.click, got, start)
			}
			b.do(t, ctrlY)
			if got := shown(t, b); got != typed {
				t.Errorf("Ctrl+Y after a click on %s: the grid shows\n%s\nwant\n%s", tt.click, got, typed)
			}
			b.do(t, ctrlZ)
		})
	}
}
