package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sudokubank/server"
)

// playPuzzle is a puzzle of the fixture bank for the play tests, with
// its solution and the number of its hint steps.
type playPuzzle struct {
	puzzle
	steps int
}

// mustPlayPuzzle returns the first puzzle of the bank served at url,
// one whose hints solve it.
func mustPlayPuzzle(t *testing.T, url string) playPuzzle {
	t.Helper()
	var pg page
	MustGet(t, url+"/api/v1/puzzles?limit=1&solution=1", &pg)
	if len(pg.Puzzles) != 1 {
		t.Fatal("no puzzle")
	}
	var hints struct {
		Steps      []hintStep `json:"steps"`
		Unfinished bool       `json:"unfinished"`
	}
	MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", url, pg.Puzzles[0].ID), &hints)
	if hints.Unfinished {
		t.Fatalf("the hints of puzzle %d do not solve it", pg.Puzzles[0].ID)
	}
	return playPuzzle{pg.Puzzles[0], len(hints.Steps)}
}

// open opens the puzzle's page afresh.
func (p playPuzzle) open(t *testing.T, b *browser, url string) {
	t.Helper()
	b.do(t, chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", url, p.ID)), chromedp.WaitVisible(cellSel(9, 9)))
}

// empties returns the indexes of the puzzle's empty cells.
func (p playPuzzle) empties() []int {
	var out []int
	for i := range p.Puzzle {
		if p.Puzzle[i] == '.' || p.Puzzle[i] == '0' {
			out = append(out, i)
		}
	}
	return out
}

// typeIn types digits into cells as keystrokes the page's handlers see:
// a click on each cell, then its digit.
func typeIn(t *testing.T, b *browser, cells []int, digits string) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
		const cells = document.querySelectorAll("[data-cell]"), at = %s, ds = %q;
		at.forEach((i, k) => {
			cells[i].click();
			const d = ds[k];
			cells[i].dispatchEvent(new KeyboardEvent("keydown", {key: d, code: "Digit" + d, bubbles: true, cancelable: true}));
		});
	})()`, strings.ReplaceAll(fmt.Sprint(cells), " ", ","), digits)
	b.do(t, chromedp.Evaluate[chromedp.Void](js))
}

// shown is the grid as the page shows it, a dot for an empty cell.
func shown(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, `[...document.querySelectorAll("[data-cell] .v")].map(v => v.textContent || ".").join("")`)
}

// status is the text of the page's status line.
func status(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, `document.getElementById("status").textContent`)
}

// solvedSays is what Check says of a grid the player solved.
const solvedSays = "Solved: every cell is right."

// The page says a puzzle is solved as soon as its last cell is filled,
// by a key, the pad or a hint, in its live status line; a full grid with
// a wrong value says so without marking it, and a grid revealed in part
// is not solved by the player.
func TestBrowserSolved(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	empty := p.empties()
	last := empty[len(empty)-1]
	lr, lc := last/9+1, last%9+1
	digits := func(cells []int) string {
		var sb strings.Builder
		for _, i := range cells {
			sb.WriteByte(p.Solution[i])
		}
		return sb.String()
	}
	// fillButLast fills every empty cell but the last, and checks the
	// page has not called the grid solved yet.
	fillButLast := func(t *testing.T, ds string) {
		t.Helper()
		p.open(t, b, ts.URL)
		typeIn(t, b, empty[:len(empty)-1], ds)
		if got := status(t, b); got != "" {
			t.Errorf("one cell empty, the page says %q", got)
		}
	}

	t.Run("Key", func(t *testing.T) {
		fillButLast(t, digits(empty[:len(empty)-1]))
		b.do(t, chromedp.Click(cellSel(lr, lc)), chromedp.KeyEvent(string(p.Solution[last])),
			wait(fmt.Sprintf(`document.getElementById("status").textContent === %q`, solvedSays)))
		if live := eval[string](t, b, `document.getElementById("status").getAttribute("aria-live")`); live != "polite" {
			t.Errorf("the status line has aria-live %q: a screen reader would not hear it", live)
		}
	})

	t.Run("Pad", func(t *testing.T) {
		fillButLast(t, digits(empty[:len(empty)-1]))
		b.do(t, chromedp.Click(cellSel(lr, lc)), chromedp.Click(chromedp.CSS(fmt.Sprintf(`#pad button:nth-child(%c)`, p.Solution[last]))),
			wait(fmt.Sprintf(`document.getElementById("status").textContent === %q`, solvedSays)))
	})

	t.Run("Hint", func(t *testing.T) {
		p.open(t, b, ts.URL)
		b.do(t, chromedp.Click(chromedp.CSS("#hint-next")), wait(`document.getElementById("hint-text").textContent.startsWith("Step 1 of")`),
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`for (let i = 0; i < %d; i++) document.getElementById("hint-apply").click()`, p.steps)),
			wait(fmt.Sprintf(`document.getElementById("status").textContent === %q`, solvedSays)))
		if got := shown(t, b); got != p.Solution {
			t.Errorf("solved by the hints, the grid shows\n%s\nwant\n%s", got, p.Solution)
		}
	})

	// A wrong value in a full grid: not solved, and no cell named.
	t.Run("Wrong", func(t *testing.T) {
		ds := []byte(digits(empty[:len(empty)-1]))
		ds[0] = '1' + (ds[0]-'1'+1)%9
		fillButLast(t, string(ds))
		b.do(t, chromedp.Click(cellSel(lr, lc)), chromedp.KeyEvent(string(p.Solution[last])),
			wait(`document.getElementById("status").textContent.startsWith("Every cell is filled, but not every one is right")`))
		if n := eval[int](t, b, `document.querySelectorAll(".cell.wrong").length`); n != 0 {
			t.Errorf("a full grid with a wrong value marks %d cells wrong before Check", n)
		}
	})

	// Revealed, then one cell typed in again: right, but not solved.
	t.Run("Revealed", func(t *testing.T) {
		p.open(t, b, ts.URL)
		b.do(t, chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`), chromedp.Click(chromedp.CSS("#reveal")),
			wait(`document.getElementById("status").textContent === "The solution is revealed."`),
			chromedp.Click(cellSel(lr, lc)), chromedp.KeyEvent(kb.Backspace), chromedp.KeyEvent(string(p.Solution[last])),
			wait(`document.getElementById("status").textContent.startsWith("Every cell is right")`))
		if got, want := status(t, b), fmt.Sprintf("Every cell is right, %d of them revealed.", len(empty)-1); got != want {
			t.Errorf("revealed but one cell, the page says %q, want %q", got, want)
		}
	})
}

// Undo, the button and Ctrl+Z or Cmd+Z, steps back through every change
// of values and pencil marks, Reveal as one step; Reveal asks first.
func TestBrowserUndo(t *testing.T) {
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

	b.do(t, chromedp.Click(cellSel(e1/9+1, e1%9+1)), chromedp.KeyEvent(string(d1)), chromedp.KeyEvent(string(d2)),
		chromedp.Click(cellSel(e2/9+1, e2%9+1)), chromedp.KeyEvent(" 3 "), wait(marks+` === "3"`))
	before := with(start, e1, d2)
	if got := shown(t, b); got != before {
		t.Fatalf("typed in, the grid shows\n%s\nwant\n%s", got, before)
	}

	// Reveal, refused, changes nothing; confirmed, it fills the grid.
	asked := eval[int](t, b, `(() => {
		window.asked = 0;
		window.confirm = () => { window.asked++; return false; };
		document.getElementById("reveal").click();
		return window.asked;
	})()`)
	if got := shown(t, b); asked != 1 || got != before {
		t.Errorf("Reveal refused: asked %d times, grid\n%s\nwant asked once, grid\n%s", asked, got, before)
	}
	b.do(t, chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`), chromedp.Click(chromedp.CSS("#reveal")),
		wait(fmt.Sprintf(`[...document.querySelectorAll("[data-cell] .v")].map(v => v.textContent).join("") === %q`, p.Solution)))

	// Back, one step at a time, by the keys and the button.
	for _, tt := range []struct {
		name  string
		undo  chromedp.Action[chromedp.Void]
		grid  string
		marks string
	}{
		{"CtrlZ", chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)), before, "3"},
		{"Button", chromedp.Click(chromedp.CSS("#undo")), before, ""},
		{"CmdZ", chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierMeta)), with(start, e1, d1), ""},
		{"Button", chromedp.Click(chromedp.CSS("#undo")), start, ""},
		{"NothingLeft", chromedp.Click(chromedp.CSS("#undo")), start, ""},
	} {
		b.do(t, tt.undo)
		if got, m := shown(t, b), eval[string](t, b, marks); got != tt.grid || m != tt.marks {
			t.Errorf("%s: the grid shows\n%s\nmarks %q, want\n%s\nmarks %q", tt.name, got, m, tt.grid, tt.marks)
		}
	}
}

// A pointer's click on the pad or a tool leaves the focus on the grid's
// selected cell, so arrows and digits go on working; the pad, one stop,
// and the tools stay in the tab order and work from the keyboard.
func TestBrowserPadFocus(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	e := p.empties()[0]
	r, c := e/9+1, e%9+1
	focused := `document.activeElement.dataset.cell || document.activeElement.id || document.activeElement.textContent`
	b.do(t, chromedp.Click(cellSel(r, c)), chromedp.Click(chromedp.CSS(`#pad button:nth-child(5)`)))
	if got, want := eval[string](t, b, focused), fmt.Sprintf("%d,%d", r, c); got != want {
		t.Errorf("after a click on the pad the focus is on %q, want the cell %s", got, want)
	}
	b.do(t, chromedp.Click(chromedp.CSS("#pencil")), chromedp.Click(chromedp.CSS("#pencil")), chromedp.KeyEvent(kb.Backspace))
	if got := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s .v').textContent`, cellSel(r, c))); got != "" {
		t.Errorf("Backspace after clicks on the pad and Pencil leaves %q in r%dc%d", got, r, c)
	}
	b.do(t, chromedp.KeyEvent(kb.ArrowRight))
	if got, want := eval[string](t, b, focused), fmt.Sprintf("%d,%d", r, min(c+1, 9)); got != want {
		t.Errorf("ArrowRight after the clicks focuses %q, want %s", got, want)
	}
	if got := eval[[]int](t, b, `[[...document.querySelectorAll("#pad button")].filter(b => b.tabIndex >= 0).length, [...document.querySelectorAll("#play .tools button")].filter(b => b.tabIndex < 0).length]`); got[0] != 1 || got[1] != 0 {
		t.Errorf("%d buttons of the pad in the tab order, %d tools out of it; want the pad as one stop, every tool in it", got[0], got[1])
	}
	// The keyboard: focus on a pad button, Enter enters its digit.
	b.do(t, chromedp.Click(cellSel(r, c)), chromedp.Focus(chromedp.CSS(`#pad button:nth-child(4)`)), chromedp.KeyEvent(kb.Enter),
		wait(fmt.Sprintf(`document.querySelector('%s .v').textContent === "4"`, cellSel(r, c))))
}

// The selected cell stands out, with the focus elsewhere, from its
// neighbours and the cells of its value by 3:1 or more.
func TestBrowserSelectedCell(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	given := strings.IndexFunc(p.Puzzle, func(r rune) bool { return r >= '1' && r <= '9' })
	b.do(t, chromedp.Click(cellSel(given/9+1, given%9+1)), chromedp.Focus(chromedp.CSS("#back")))
	got := eval[[]float64](t, b, `(() => {
		const lum = (c) => c.match(/[\d.]+/g).slice(0, 3).map((x) => x / 255)
			.map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4))
			.reduce((s, x, k) => s + x * [0.2126, 0.7152, 0.0722][k], 0);
		const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
		const sel = document.querySelector(".cell.sel"), s = getComputedStyle(sel);
		const ring = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2;
		const mark = ring ? s.outlineColor : s.backgroundColor;
		const others = [...document.querySelectorAll(".cell.same, .cell.peer")].map((c) => getComputedStyle(c).backgroundColor);
		if (ring) others.push(s.backgroundColor);
		return [document.querySelectorAll(".cell.same").length, Math.min(...others.map((c) => ratio(mark, c)))];
	})()`)
	if len(got) != 2 || got[0] == 0 || got[1] < 3 {
		t.Errorf("cells of the same value, lowest contrast of the selected cell: %v, want some and 3:1 or more", got)
	}
	MustScreenshot(t, b, "puzzle-selected.png")
}

// Space in the grid turns pencil mode on and off, and the status line
// says which: a player on the keyboard, or hearing the page, learns it
// without looking for the Pencil button.
func TestBrowserPencilSaid(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	e := p.empties()[0]
	b.do(t, chromedp.Click(cellSel(e/9+1, e%9+1)))
	for _, want := range []string{"Pencil mode on.", "Pencil mode off."} {
		b.do(t, chromedp.KeyEvent(" "))
		if got := status(t, b); got != want {
			t.Errorf("Space in the grid: the status says %q, want %q", got, want)
		}
	}
}
