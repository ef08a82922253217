package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sudokubank/server"
)

// cellMeasure is how a grid's cells lie on the screen.
type cellMeasure struct {
	Cells     int     `json:"cells"`
	MinSide   float64 `json:"minSide"`   // the smallest width or height of a cell, in CSS px
	MinFont   float64 `json:"minFont"`   // the smallest font size of a cell's value
	PageWidth int     `json:"pageWidth"` // the width of the page, scrolled or not
	GridFits  bool    `json:"gridFits"`  // the whole grid lies within the viewport's width
	Untapped  string  `json:"untapped"`  // the first cell a tap at its centre does not reach, scrolled to
}

// measureCells scrolls each cell into view and taps at its centre, as
// far as elementFromPoint tells, and measures the cells.
const measureCells = `(() => {
	const cells = [...document.querySelectorAll("[data-cell]")];
	const g = document.getElementById("grid").getBoundingClientRect();
	const out = {cells: cells.length, minSide: 1e9, minFont: 1e9, pageWidth: document.documentElement.scrollWidth,
		gridFits: g.left >= 0 && g.right <= window.innerWidth + 0.5, untapped: ""};
	for (const c of cells) {
		const r = c.getBoundingClientRect();
		out.minSide = Math.min(out.minSide, r.width, r.height);
		out.minFont = Math.min(out.minFont, parseFloat(getComputedStyle(c.querySelector(".v")).fontSize));
	}
	for (const c of cells) {
		c.scrollIntoView({block: "nearest", inline: "nearest"});
		const r = c.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		if (!out.untapped && (!hit || hit.closest("[data-cell]") !== c)) out.untapped = c.dataset.cell;
	}
	window.scrollTo(0, 0);
	return out;
})()`

// On a phone every cell of every size is a target of 24 CSS px or more
// (WCAG 2.2's target size) with a legible value, the page keeps to the
// screen's width, and a grid too wide for it scrolls sideways in place,
// each cell reachable by a tap. On a 390 px phone grids up to 16x16 fit.
func TestBrowserPhoneTargets(t *testing.T) {
	b := MustBrowser(t, 390, 844)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	for _, width := range []int{390, 360} {
		b.do(t, chromedp.EmulateViewport(int64(width), 844, chromedp.EmulateMobile))
		p.open(t, b, ts.URL)
		for _, n := range []int{6, 9, 12, 16, 25} {
			t.Run(fmt.Sprintf("%dpx/%dx%d", width, n, n), func(t *testing.T) {
				if n != 9 {
					b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, "1"+strings.Repeat(".", n*n-1))))
				} else {
					b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, p.Puzzle)))
				}
				m := eval[cellMeasure](t, b, measureCells)
				t.Logf("cells of %.1f px or more, values of %.1f px or more; page %d px wide; grid within the screen %v", m.MinSide, m.MinFont, m.PageWidth, m.GridFits)
				if m.Cells != n*n || m.MinSide < 24 || m.MinFont < 12 {
					t.Errorf("%d cells, the smallest %.1f px a side with values of %.1f px; want %d cells, 24 px or more, values of 12 px or more",
						m.Cells, m.MinSide, m.MinFont, n*n)
				}
				if m.PageWidth > width {
					t.Errorf("the page is %d px wide on a %d px screen", m.PageWidth, width)
				}
				if m.Untapped != "" {
					t.Errorf("a tap at the centre of cell %s, scrolled to, does not reach it", m.Untapped)
				}
				if width == 390 && n <= 16 && !m.GridFits {
					t.Errorf("the grid does not fit the width of a %d px phone", width)
				}
				if width == 390 && n == 16 {
					MustScreenshot(t, b, "puzzle-phone-16x16.png")
				}
			})
		}
	}
}

// On a phone the status line is in sight while the grid is: a tap that
// cannot change a given says so where the player looks, not below the
// page's end.
func TestBrowserPhoneStatus(t *testing.T) {
	b := MustBrowser(t, 390, 844)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	b.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	p.open(t, b, ts.URL)
	given := strings.IndexFunc(p.Puzzle, func(r rune) bool { return r >= '1' && r <= '9' })
	b.do(t, chromedp.Click(cellSel(given/9+1, given%9+1)), chromedp.Click(chromedp.CSS(`#pad button:nth-child(1)`)),
		wait(`document.getElementById("status").textContent === "A given cannot change."`),
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	got := eval[[]float64](t, b, `(() => {
		const s = document.getElementById("status").getBoundingClientRect(), g = document.getElementById("grid").getBoundingClientRect();
		return [s.top, s.bottom, g.top, innerHeight];
	})()`)
	if top, bottom, grid, height := got[0], got[1], got[2], got[3]; grid < 0 || grid >= height || top < 0 || bottom > height {
		t.Errorf("with the grid at %.0f px on a screen %.0f px high, the status line is at %.0f to %.0f px: out of sight", grid, height, top, bottom)
	}
}

// rect is an element's box on the screen, in CSS px.
type rect struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
}

// rects returns the boxes of the elements of ids, as painted next (the
// page's resize observers run first), and the viewport's as "viewport".
func rects(t *testing.T, b *browser, ids ...string) map[string]rect {
	t.Helper()
	return eval[map[string]rect](t, b, fmt.Sprintf(`(async () => {
		await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
		const out = {viewport: {top: 0, bottom: innerHeight, left: 0, right: innerWidth}};
		for (const id of %s) {
			const r = document.getElementById(id).getBoundingClientRect();
			out[id] = {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
		}
		return out;
	})()`, strings.ReplaceAll(fmt.Sprintf("%q", ids), `" "`, `", "`)))
}

// On a phone a hint's step is read with the grid in sight: with the page
// scrolled to the grid, the step's text and buttons stick to the foot of
// the screen below it, above the status line. On a touch screen the pad
// follows the grid and the keyboard's help goes last.
func TestBrowserPhoneHints(t *testing.T) {
	b := MustBrowser(t, 390, 844)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	b.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.open(t, b, ts.URL)
	if !eval[bool](t, b, `matchMedia("(pointer: coarse)").matches`) {
		t.Fatal("the emulated phone has no coarse pointer")
	}
	if r := rects(t, b, "grid-help", "pad", "hint-next"); r["grid-help"].Top < r["pad"].Bottom || r["grid-help"].Top < r["hint-next"].Bottom {
		t.Errorf("on a touch screen the keyboard's help is at %.0f px, above the pad (%.0f px) or the hints (%.0f px)",
			r["grid-help"].Top, r["pad"].Bottom, r["hint-next"].Bottom)
	}
	given := strings.IndexFunc(p.Puzzle, func(r rune) bool { return r >= '1' && r <= '9' })
	for _, tt := range []struct {
		name   string
		status bool // whether the status line says something
	}{{"StatusEmpty", false}, {"StatusShown", true}} {
		t.Run(tt.name, func(t *testing.T) {
			b.do(t, chromedp.Click(chromedp.CSS("#hint-next")), wait(`document.getElementById("hint-text").textContent.startsWith("Step ")`))
			if tt.status {
				b.do(t, chromedp.Click(cellSel(given/9+1, given%9+1)), chromedp.Click(chromedp.CSS(`#pad button:nth-child(1)`)),
					wait(`document.getElementById("status").textContent === "A given cannot change."`))
			}
			b.do(t, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			r := rects(t, b, "grid", "hint-text", "hint-prev", "hint-next", "hint-apply", "status")
			screen := r["viewport"]
			for _, id := range []string{"grid", "hint-text", "hint-prev", "hint-next", "hint-apply"} {
				if e := r[id]; e.Top < 0 || e.Bottom > screen.Bottom+0.5 {
					t.Errorf("scrolled to the top of a %.0f px high screen, #%s is at %.0f to %.0f px: out of sight", screen.Bottom, id, e.Top, e.Bottom)
				}
			}
			if r["hint-prev"].Top < r["grid"].Bottom {
				t.Errorf("the hint's buttons (%.0f px) cover the grid (down to %.0f px)", r["hint-prev"].Top, r["grid"].Bottom)
			}
			if tt.status && r["hint-text"].Bottom > r["status"].Top+0.5 {
				t.Errorf("the hint's text, down to %.0f px, runs under the status line at %.0f px", r["hint-text"].Bottom, r["status"].Top)
			}
			t.Logf("grid %.0f-%.0f px, hint buttons from %.0f px, text %.0f-%.0f px, status from %.0f px, screen %.0f px",
				r["grid"].Top, r["grid"].Bottom, r["hint-prev"].Top, r["hint-text"].Top, r["hint-text"].Bottom, r["status"].Top, screen.Bottom)
			// A tool the focus moves to scrolls clear of the step stuck
			// over the page's foot.
			for _, id := range []string{"pencil", "fill", "reveal"} {
				b.do(t, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Focus(chromedp.CSS("#"+id)))
				if r := rects(t, b, id, "hints"); r[id].Bottom > r["hints"].Top+0.5 || r[id].Top < 0 {
					t.Errorf("#%s focused is at %.0f to %.0f px, under the step stuck from %.0f px", id, r[id].Top, r[id].Bottom, r["hints"].Top)
				}
			}
			if tt.status {
				MustScreenshot(t, b, "puzzle-phone-hint.png")
			}
		})
	}
}

// marksStrip is the selected cell's marks as the page shows them large:
// whether the strip shows, its text and the smallest font of its marks,
// beside the font of the cell's own marks.
type marksStrip struct {
	Shown     bool    `json:"shown"`
	Text      string  `json:"text"`
	Marks     string  `json:"marks"`
	Font      float64 `json:"font"`
	CellFont  float64 `json:"cellFont"`
	CellMarks string  `json:"cellMarks"`
}

const measureMarks = `(() => {
	const s = document.getElementById("cell-marks") || document.createElement("p"), c = document.querySelector(".cell.sel");
	const spans = [...s.querySelectorAll("span")], r = s.getBoundingClientRect();
	return {shown: getComputedStyle(s).display !== "none" && r.width > 0 && r.left >= 0 && r.right <= innerWidth + 0.5,
		text: s.textContent, marks: spans.map(m => m.textContent).join(""),
		font: Math.min(...spans.map(m => parseFloat(getComputedStyle(m).fontSize))),
		cellFont: parseFloat(getComputedStyle(c.querySelector(".cands span")).fontSize),
		cellMarks: [...c.querySelectorAll(".cands span")].filter(m => !m.className).map(m => m.textContent).join("")};
})()`

// The selected cell's pencil marks show large beside the grid where the
// cell's own are too small to read: 16x16 (3.5 px marks on a phone, 5
// px on a desktop) and every grid on a phone. 9x9 on a desktop, whose
// marks are readable, is as it was.
func TestBrowserMarksStrip(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	for _, tt := range []struct {
		name  string
		width int
		n     int
		shown bool
	}{{"Desktop9", 1200, 9, false}, {"Desktop16", 1200, 16, true}, {"Phone9", 390, 9, true}, {"Phone16", 390, 16, true}, {"Phone25", 390, 25, true}} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.width < 1000 {
				b.do(t, chromedp.EmulateViewport(int64(tt.width), 844, chromedp.EmulateMobile))
			} else {
				b.do(t, chromedp.EmulateViewport(int64(tt.width), 1000))
			}
			p.open(t, b, ts.URL)
			b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, "1"+strings.Repeat(".", tt.n*tt.n-1))),
				chromedp.Click(cellSel(1, 2)), chromedp.Click(chromedp.CSS("#pencil")))
			// Pencil in 2, 3 and the last value by the pad.
			for _, k := range []int{2, 3, tt.n} {
				b.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf("#pad button:nth-child(%d)", k))))
			}
			m := eval[marksStrip](t, b, measureMarks)
			t.Logf("%s: the cell's marks are %.1f px, the strip's %.1f px, shown %v: %q", tt.name, m.CellFont, m.Font, m.Shown, m.Text)
			want := "23" + symbolOf(tt.n)
			if m.CellMarks != want {
				t.Fatalf("the cell has marks %q, want %q", m.CellMarks, want)
			}
			if m.Shown != tt.shown {
				t.Errorf("the marks strip shown %v, want %v", m.Shown, tt.shown)
			}
			if !tt.shown {
				return
			}
			if m.Marks != want || !strings.HasPrefix(m.Text, "Marks in row 1, column 2:") || m.Font < 16 {
				t.Errorf("the strip says %q, marks %q of %.1f px; want the marks %q of row 1, column 2, 16 px or more", m.Text, m.Marks, m.Font, want)
			}
			// Another cell, without marks, says so.
			b.do(t, chromedp.Click(cellSel(2, 1)))
			if got := eval[marksStrip](t, b, measureMarks); got.Text != "No marks in row 2, column 1." {
				t.Errorf("a cell without marks selected, the strip says %q", got.Text)
			}
		})
	}
}

// A grid wider than the phone's screen shows that it scrolls: the edge
// it is cut at fades, the right one first, the left one once scrolled
// to the end; a grid that fits fades nowhere.
func TestBrowserPhoneScrollCue(t *testing.T) {
	b := MustBrowser(t, 390, 844)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	b.do(t, chromedp.EmulateViewport(360, 844, chromedp.EmulateMobile))
	p.open(t, b, ts.URL)
	cue := func() string {
		return eval[string](t, b, `(() => {
			const w = document.getElementById("grid-wrap"), m = getComputedStyle(w).maskImage;
			return [w.classList.contains("cut-left") ? "left" : "", w.classList.contains("cut-right") ? "right" : "", m === "none" ? "no mask" : "mask"].filter(Boolean).join(" ");
		})()`)
	}
	if got := cue(); got != "no mask" {
		t.Errorf("9x9 on a 360 px phone: %q, want no cut and no mask", got)
	}
	for _, n := range []int{16, 25} {
		b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, "1"+strings.Repeat(".", n*n-1))))
		if got := cue(); got != "right mask" {
			t.Errorf("%dx%d on a 360 px phone: %q, want the right edge cut and faded", n, n, got)
		}
		b.do(t, chromedp.Evaluate[chromedp.Void](`(w => w.scrollLeft = w.scrollWidth)(document.getElementById("grid-wrap"))`),
			wait(`document.getElementById("grid-wrap").classList.contains("cut-left")`))
		if got := cue(); got != "left mask" {
			t.Errorf("%dx%d on a 360 px phone, scrolled to its end: %q, want the left edge cut and faded", n, n, got)
		}
	}
	b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, p.Puzzle)))
	if got := cue(); got != "no mask" {
		t.Errorf("9x9 again: %q, want no cut and no mask", got)
	}
}
