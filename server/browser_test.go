package server_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/banktest"
	"sudokubank/server"
	"sudokubank/store"
)

// The browser tests drive the page in headless Chromium. They skip when
// no Chromium is installed (CI installs Debian's chromium package);
// SUDOKUBANK_CHROMIUM names another binary, and SUDOKUBANK_ARTIFACTS a
// folder to keep their screenshots in.

// chromium returns the path of a Chromium binary, or skips the test.
func chromium(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("SUDOKUBANK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Skip("no chromium binary found (apt-get install chromium): the browser tests skip")
	return ""
}

// browser is a headless tab and the page errors it has seen.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

// MustBrowser starts headless Chromium for the test, with a tab of
// width x height pixels; the browser stops when the test ends.
func MustBrowser(tb testing.TB, width, height int) *browser {
	tb.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(tb)),
		chromedp.NoSandbox, // the tests may run as root, where the sandbox refuses to start
		chromedp.WindowSize(width, height),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	tb.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		tb.Fatalf("start %s: %v", chromium(tb), err)
	}
	b := &browser{ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			// Errors of the script and of the Content-Security-Policy
			// count; a 404 the page asked for (a missing puzzle) does not.
			if m.IsException() || m.Type == chromedp.ConsoleError && m.Source != "network" {
				b.mu.Lock()
				b.errs = append(b.errs, m.String())
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// do runs actions, failing the test on the first error or on an error
// the page has thrown so far.
func (b *browser) do(tb testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.Fatal(err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errs) > 0 {
		tb.Fatalf("the page failed: %s", strings.Join(b.errs, "\n"))
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) in the
// page and returns its value.
func eval[T any](tb testing.TB, b *browser, js string) T {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait waits until the JavaScript predicate is true.
func wait(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(10*time.Second))
}

// cellSel is the selector of the cell at row r, column c, from 1.
func cellSel(r, c int) chromedp.CSS { return chromedp.CSS(fmt.Sprintf(`[data-cell="%d,%d"]`, r, c)) }

// artifact writes a test's file to $SUDOKUBANK_ARTIFACTS, or to its
// temporary folder, and returns its path.
func artifact(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	dir := os.Getenv("SUDOKUBANK_ARTIFACTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("wrote %s", path)
	return path
}

// MustScreenshot takes a PNG of the whole page into the artifact name
// and checks it decodes at the size of the page.
func MustScreenshot(tb testing.TB, b *browser, name string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	img, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil || cfg.Width < 300 || cfg.Height < 300 {
		tb.Fatalf("screenshot %s: %dx%d, %v", name, cfg.Width, cfg.Height, err)
	}
	artifact(tb, name, img)
}

// fetched is what the page's own fetch of a link got.
type fetched struct {
	Status int    `json:"status"`
	Type   string `json:"type"`
	Head   string `json:"head"`
	Size   int    `json:"size"`
}

// fetchLink fetches the href of the link sel from the page, as a click
// on it would.
func fetchLink(tb testing.TB, b *browser, sel string) fetched {
	tb.Helper()
	return eval[fetched](tb, b, fmt.Sprintf(`(async () => {
		const r = await fetch(document.querySelector(%q).href);
		const body = new Uint8Array(await r.arrayBuffer());
		return {status: r.status, type: r.headers.get("content-type"), head: String.fromCharCode(...body.slice(0, 5)), size: body.length};
	})()`, sel))
}

// The page in a real browser: browse with the filter, pick and print,
// open a puzzle, enter digits, see conflicts, step through the hints,
// check and reveal, on a desktop and a phone screen.
func TestBrowser(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	var stats struct {
		Levels []struct {
			Name    string `json:"name"`
			Puzzles int64  `json:"puzzles"`
		} `json:"levels"`
	}
	MustGet(t, ts.URL+"/api/v1/stats", &stats)

	// A double click on More asks for the next page once: no puzzle is
	// listed twice.
	t.Run("MoreTwice", func(t *testing.T) {
		b.do(t, chromedp.Navigate(ts.URL+"/"), wait(`document.querySelectorAll("#results tbody a").length === 50`))
		asked := eval[int](t, b, `(() => {
			let n = 0;
			const f = window.fetch;
			window.fetch = (...args) => { if (String(args[0]).startsWith("/api/v1/puzzles?")) n++; return f(...args); };
			document.getElementById("more").click();
			document.getElementById("more").click();
			window.fetch = f;
			return n;
		})()`)
		b.do(t, wait(`document.querySelectorAll("#results tbody a").length > 50`))
		ids := eval[[]string](t, b, `[...document.querySelectorAll("#results tbody a")].map(a => a.textContent)`)
		if asked != 1 || len(ids) != 100 || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
			t.Errorf("two clicks on More asked for %d pages and list %d puzzles, %d of them different; want 1 page more, 100 different",
				asked, len(ids), len(slices.Compact(slices.Sorted(slices.Values(ids)))))
		}
	})

	// A filter the server refuses says why and lists nothing.
	t.Run("BadFilter", func(t *testing.T) {
		b.do(t, chromedp.Navigate(ts.URL+"/"), wait(`document.querySelectorAll("#results tbody a").length === 50`),
			chromedp.SetValue(chromedp.CSS("#f-rating"), "abc"), chromedp.Click(chromedp.CSS(`#filter button[type="submit"]`)),
			wait(`document.getElementById("status").textContent.includes("rating")`))
		if n := eval[int](t, b, `document.querySelectorAll("#results tbody a").length`); n != 0 || !eval[bool](t, b, `document.getElementById("more").hidden`) {
			t.Errorf("after a refused filter the page lists %d puzzles and offers more: %v", n, !eval[bool](t, b, `document.getElementById("more").hidden`))
		}
	})

	var id int64
	t.Run("Browse", func(t *testing.T) {
		b.do(t, chromedp.Navigate(ts.URL+"/"), wait(`document.querySelectorAll("#results tbody a").length > 0`))
		for _, l := range stats.Levels {
			got := eval[string](t, b, fmt.Sprintf(`document.querySelector('#f-level option[value=%q]').textContent`, l.Name))
			if want := fmt.Sprintf("%s (%d)", l.Name, l.Puzzles); got != want {
				t.Errorf("level option %q, want %q", got, want)
			}
		}
		if eval[bool](t, b, `!document.getElementById("f-size-field").hidden || getComputedStyle(document.querySelector("#results td.size")).display !== "none"`) {
			t.Errorf("a bank of 9x9 puzzles alone shows a size filter or column")
		}
		if n := eval[int](t, b, `document.querySelectorAll("#f-technique option").length`); n < 3 {
			t.Errorf("%d technique options, want the techniques of the bank", n)
		}
		b.do(t, chromedp.SetValue(chromedp.CSS("#f-level"), "evil"), chromedp.SetValue(chromedp.CSS("#f-rating"), "7.0-"),
			chromedp.Click(chromedp.CSS(`#filter button[type="submit"]`)),
			wait(`[...document.querySelectorAll("#results tbody tr")].every(tr => tr.cells[3].textContent === "evil" && +tr.cells[5].textContent >= 7)`))
		if got := eval[string](t, b, `location.search`); got != "?level=evil&rating=7.0-" {
			t.Errorf("location %q: want the filter in the URL", got)
		}
		// Every puzzle listed is one the API gives for the filter.
		var pg page
		MustGet(t, ts.URL+"/api/v1/puzzles?level=evil&rating=7.0-&limit=50", &pg)
		ids := eval[[]string](t, b, `[...document.querySelectorAll("#results tbody a")].map(a => a.textContent.slice(1))`)
		if len(ids) != len(pg.Puzzles) || len(ids) == 0 || ids[0] != fmt.Sprint(pg.Puzzles[0].ID) {
			t.Errorf("the page lists %v, the API %d puzzles from %d", ids, len(pg.Puzzles), pg.Puzzles[0].ID)
		}
		id = pg.Puzzles[0].ID
		MustScreenshot(t, b, "browse-desktop.png")
	})

	t.Run("Print", func(t *testing.T) {
		b.do(t, chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(1) input`)),
			chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(2) input`)),
			wait(`document.getElementById("picked-n").textContent === "2"`))
		href := eval[string](t, b, `document.getElementById("print-picked").href`)
		if !strings.Contains(href, "format=pdf") || !strings.Contains(href, fmt.Sprintf("ids=%d,", id)) {
			t.Errorf("print link %q: want a pdf of the picked puzzles", href)
		}
		for _, sel := range []string{"#print-picked", "#print-filter"} {
			got := fetchLink(t, b, sel)
			if got.Status != http.StatusOK || got.Type != "application/pdf" || !strings.HasPrefix(got.Head, "%PDF") {
				t.Errorf("%s: %+v, want a PDF", sel, got)
			}
		}
		if href := eval[string](t, b, `document.getElementById("print-filter").href`); !strings.Contains(href, "level=evil") {
			t.Errorf("filter print link %q: want the filter", href)
		}
	})

	// The filter's PDF is of the list shown, not of the form as edited
	// and not yet submitted: neither another level nor a rating the
	// server would refuse gets into it until "Show puzzles" is pressed.
	t.Run("PrintShownFilter", func(t *testing.T) {
		other := stats.Levels[0].Name
		b.do(t, chromedp.Navigate(ts.URL+"/?level=evil"), wait(`document.querySelectorAll("#results tbody a").length > 0`),
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
				const l = document.getElementById("f-level"), r = document.getElementById("f-rating");
				l.value = %q;
				l.dispatchEvent(new Event("change", {bubbles: true}));
				r.value = "abc";
				r.dispatchEvent(new Event("input", {bubbles: true}));
				r.dispatchEvent(new Event("change", {bubbles: true}));
			})()`, other)))
		href := eval[string](t, b, `document.getElementById("print-filter").href`)
		if !strings.Contains(href, "level=evil") || strings.Contains(href, "rating") {
			t.Errorf("filter print link %q before the filter is submitted: want the shown level=evil and no rating", href)
		}
		if got := fetchLink(t, b, "#print-filter"); got.Status != http.StatusOK || got.Type != "application/pdf" {
			t.Errorf("filter print link before the filter is submitted: %+v, want a PDF", got)
		}
		b.do(t, chromedp.Evaluate[chromedp.Void](`document.getElementById("f-rating").value = ""`), chromedp.Click(chromedp.CSS(`#filter button[type="submit"]`)),
			wait(`location.search === "?level=`+strings.ReplaceAll(other, " ", "+")+`"`))
		if href := eval[string](t, b, `document.getElementById("print-filter").href`); !strings.Contains(href, "level="+strings.ReplaceAll(other, " ", "+")) {
			t.Errorf("filter print link %q once the filter is submitted: want level %q", href, other)
		}
		// Back to the list of Browse, which Open goes on from.
		b.do(t, chromedp.Navigate(ts.URL+"/?level=evil&rating=7.0-"), wait(`document.querySelectorAll("#results tbody a").length > 0`))
	})

	var p puzzle
	MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d?solution=1", ts.URL, id), &p)
	t.Run("Open", func(t *testing.T) {
		b.do(t, chromedp.Click(chromedp.CSS(`#results tbody a`)), chromedp.WaitVisible(cellSel(9, 9)))
		if got := eval[string](t, b, `location.pathname`); got != fmt.Sprintf("/puzzles/%d", id) {
			t.Errorf("opened %s, want puzzle %d", got, id)
		}
		if got := eval[string](t, b, `document.getElementById("back").getAttribute("href")`); got != "/?level=evil&rating=7.0-" {
			t.Errorf("back link %q, want the filtered list", got)
		}
		shown := eval[string](t, b, `[...document.querySelectorAll("[data-cell]")].map(c => c.querySelector(".v").textContent || ".").join("")`)
		if want := strings.ReplaceAll(p.Puzzle, "0", "."); shown != want {
			t.Errorf("grid shows\n%s\nwant\n%s", shown, want)
		}
	})

	// empty is the first cell, row by row, that has no given.
	empty := strings.IndexAny(p.Puzzle, ".0")
	er, ec := empty/9+1, empty%9+1
	t.Run("EnterDigit", func(t *testing.T) {
		right := string(p.Solution[empty])
		b.do(t, chromedp.Click(cellSel(er, ec)), chromedp.KeyEvent(right))
		if got := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s').textContent`, cellSel(er, ec))); !strings.HasPrefix(got, right) {
			t.Errorf("cell r%dc%d shows %q after typing %s", er, ec, got, right)
		}
		if n := eval[int](t, b, `document.querySelectorAll(".conflict").length`); n != 0 {
			t.Errorf("%d cells marked in conflict after the right digit", n)
		}
		// A digit given elsewhere in the row conflicts with that given.
		var wrong byte
		var at int
		for c := 0; c < 9; c++ {
			if d := p.Puzzle[(er-1)*9+c]; d != '.' && d != '0' {
				wrong, at = d, c+1
				break
			}
		}
		b.do(t, chromedp.Click(cellSel(er, ec)), chromedp.KeyEvent(string(wrong)))
		for _, c := range []int{ec, at} {
			cls := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s').className`, cellSel(er, c)))
			if !strings.Contains(cls, "conflict") {
				t.Errorf("r%dc%d: class %q after typing %c at r%dc%d, want a conflict", er, c, cls, wrong, er, ec)
			}
		}
		if got := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s').getAttribute("aria-invalid")`, cellSel(er, ec))); got != "true" {
			t.Errorf("aria-invalid %q on the conflicting cell", got)
		}
		// Check marks the wrong digit; the right one clears it.
		b.do(t, chromedp.Click(chromedp.CSS("#check")), wait(`document.querySelectorAll(".cell.wrong").length === 1`),
			chromedp.Click(cellSel(er, ec)), chromedp.KeyEvent(right), wait(`document.querySelectorAll(".conflict, .wrong").length === 0`))
		// Pencil marks: Space turns pencil mode on; Backspace clears the
		// digit, then the marks.
		marks := fmt.Sprintf(`[...document.querySelectorAll('%s .cands span')].filter(s => !s.className).map(s => s.textContent).join("")`, cellSel(er, ec))
		b.do(t, chromedp.KeyEvent(kb.Backspace+" 27 "), wait(marks+` === "27"`))
		if got := eval[string](t, b, `document.getElementById("pencil").getAttribute("aria-pressed")`); got != "false" {
			t.Errorf("pencil mode aria-pressed %q after Space twice", got)
		}
		b.do(t, chromedp.KeyEvent(kb.Backspace), wait(marks+` === ""`), chromedp.KeyEvent(right))
		b.do(t, chromedp.KeyEvent(kb.ArrowRight))
		next := eval[string](t, b, `document.activeElement.dataset.cell`)
		if want := fmt.Sprintf("%d,%d", er, min(ec+1, 9)); next != want {
			t.Errorf("ArrowRight from r%dc%d focuses %q, want %q", er, ec, next, want)
		}
	})

	var hints struct {
		Steps []hintStep `json:"steps"`
	}
	MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, id), &hints)
	t.Run("Hints", func(t *testing.T) {
		verify := func(i int) {
			t.Helper()
			checkHintShown(t, b, hints.Steps, i)
		}
		// A double click while the hints come asks for them once and
		// shows step 1.
		asked := eval[int](t, b, `(() => {
			let n = 0;
			const f = window.fetch;
			window.fetch = (...args) => { if (String(args[0]).endsWith("/hints")) n++; return f(...args); };
			document.getElementById("hint-next").click();
			document.getElementById("hint-next").click();
			window.fetch = f;
			return n;
		})()`)
		if asked != 1 {
			t.Errorf("two clicks on Next step asked for the hints %d times, want once", asked)
		}
		// Step 1, applied: its digits appear and step 2 shows.
		verify(0)
		b.do(t, chromedp.Click(chromedp.CSS("#hint-apply")))
		for _, pl := range hints.Steps[0].Placements {
			if got := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s .v').textContent`, cellSel(pl.Row, pl.Col))); got != fmt.Sprint(pl.Digit) {
				t.Errorf("applied step 1: r%dc%d shows %q, want %d", pl.Row, pl.Col, got, pl.Digit)
			}
		}
		// Every later step, and back one.
		shot := false
		for i := 1; i < len(hints.Steps); i++ {
			verify(i)
			if !shot && len(hints.Steps[i].Cells) >= 4 {
				b.do(t, chromedp.Click(chromedp.CSS("#fill")))
				MustScreenshot(t, b, "puzzle-hint.png")
				shot = true
			}
			if i < len(hints.Steps)-1 {
				b.do(t, chromedp.Click(chromedp.CSS("#hint-next")))
			}
		}
		if !shot {
			t.Errorf("no step of puzzle %d has a pattern of 4 cells or more to show", id)
		}
		b.do(t, chromedp.Click(chromedp.CSS("#hint-prev")))
		verify(len(hints.Steps) - 2)
	})

	t.Run("Screenshot", func(t *testing.T) {
		MustScreenshot(t, b, "puzzle-desktop.png")
		b.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		if over := eval[bool](t, b, `document.documentElement.scrollWidth > window.innerWidth`); over {
			t.Errorf("on a 390px phone the page is %d px wide", eval[int](t, b, `document.documentElement.scrollWidth`))
		}
		MustScreenshot(t, b, "puzzle-phone.png")
		b.do(t, chromedp.EmulateViewport(1200, 1000))
	})

	t.Run("Reveal", func(t *testing.T) {
		b.do(t, chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`), chromedp.Click(chromedp.CSS("#reveal")),
			wait(`[...document.querySelectorAll("[data-cell] .v")].every(v => v.textContent)`))
		shown := eval[string](t, b, `[...document.querySelectorAll("[data-cell] .v")].map(v => v.textContent).join("")`)
		if shown != p.Solution {
			t.Errorf("revealed\n%s\nwant\n%s", shown, p.Solution)
		}
		// Check after Reveal does not call the puzzle solved.
		b.do(t, chromedp.Click(chromedp.CSS("#check")), wait(`document.getElementById("status").textContent.startsWith("Every cell is right")`))
		if got := eval[string](t, b, `document.getElementById("status").textContent`); !strings.Contains(got, "revealed") {
			t.Errorf("Check after Reveal says %q, want how many cells were revealed", got)
		}
	})

	// The grid takes its size from the puzzle: 16x16 has 4x4 boxes and
	// the values A to G beyond 9.
	t.Run("OtherSizes", func(t *testing.T) {
		for _, tt := range []struct {
			n         int
			br, bc    int
			last, key string
		}{{4, 2, 2, "4", "3"}, {6, 2, 3, "6", "5"}, {16, 4, 4, "G", "g"}} {
			puzzle := "1" + strings.Repeat(".", tt.n*tt.n-1)
			b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, puzzle)))
			shape := eval[[]int](t, b, fmt.Sprintf(`sudokubank.shape(%d)`, tt.n))
			cells := eval[int](t, b, `document.querySelectorAll("[data-cell]").length`)
			pad := eval[[]string](t, b, `[...document.querySelectorAll("#pad button")].map(b => b.textContent)`)
			if !slices.Equal(shape, []int{tt.br, tt.bc}) || cells != tt.n*tt.n || len(pad) != tt.n || pad[tt.n-1] != tt.last {
				t.Errorf("%dx%d: boxes %v, %d cells, pad %v", tt.n, tt.n, shape, cells, pad)
			}
			b.do(t, chromedp.Click(cellSel(tt.n, tt.n)), chromedp.KeyEvent(tt.key))
			if got := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s .v').textContent`, cellSel(tt.n, tt.n))); got != strings.ToUpper(tt.key) {
				t.Errorf("%dx%d: typed %q in the last cell, it shows %q", tt.n, tt.n, tt.key, got)
			}
		}
	})

	// A path that spells the ID with leading zeros opens the puzzle
	// under its ID.
	t.Run("LeadingZeros", func(t *testing.T) {
		b.do(t, chromedp.Navigate(fmt.Sprintf("%s/puzzles/00%d", ts.URL, id)), chromedp.WaitVisible(cellSel(9, 9)))
		got := eval[[]string](t, b, `[document.title, document.getElementById("p-title").textContent, document.getElementById("p-print").getAttribute("href")]`)
		want := []string{fmt.Sprintf("Puzzle %d · sudokubank", id), fmt.Sprintf("Puzzle %d", id), fmt.Sprintf("/api/v1/export?format=pdf&ids=%d", id)}
		if !slices.Equal(got, want) {
			t.Errorf("/puzzles/00%d: title, heading and print link %q, want %q", id, got, want)
		}
	})

	// A path under /puzzles/ that names no puzzle, a number or not, is
	// the puzzle page saying so, not the bank's list.
	t.Run("MissingPuzzle", func(t *testing.T) {
		for _, id := range []string{"999999", "abc", "-1", "0"} {
			b.do(t, chromedp.Navigate(ts.URL+"/puzzles/"+id), wait(`document.getElementById("p-title").textContent === "No such puzzle"`))
			if got := eval[string](t, b, `document.getElementById("status").textContent`); !strings.Contains(got, id) {
				t.Errorf("/puzzles/%s: status %q, want the server's error", id, got)
			}
			if got := eval[string](t, b, `document.title`); !strings.HasPrefix(got, "No such puzzle") {
				t.Errorf("/puzzles/%s: title %q, want it to say there is no such puzzle", id, got)
			}
			if eval[bool](t, b, `!document.getElementById("browse").hidden`) {
				t.Errorf("/puzzles/%s shows the bank's list", id)
			}
		}
	})
}

// hintStep is a step of a hint path as the browser tests read it.
type hintStep struct {
	Cells      []struct{ Row, Col int }
	Placements []struct{ Row, Col, Digit int }
	Links      []struct{ Strong bool }
	Text       string `json:"text"`
}

// checkHintShown checks that the page shows step i of steps: its text,
// its cells highlighted and its placements' cells marked.
func checkHintShown(t *testing.T, b *browser, steps []hintStep, i int) {
	t.Helper()
	st := steps[i]
	b.do(t, wait(fmt.Sprintf(`document.getElementById("hint-text").textContent.startsWith("Step %d of %d")`, i+1, len(steps))))
	var want []string
	for _, c := range st.Cells {
		want = append(want, fmt.Sprintf("%d,%d", c.Row, c.Col))
	}
	slices.Sort(want)
	got := eval[[]string](t, b, `[...document.querySelectorAll(".cell.hint")].map(c => c.dataset.cell).sort()`)
	if !slices.Equal(got, want) {
		t.Errorf("step %d: highlighted %v, want the step's cells %v", i+1, got, want)
	}
	for _, pl := range st.Placements {
		cls := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s').className`, cellSel(pl.Row, pl.Col)))
		if !strings.Contains(cls, "hint-target") {
			t.Errorf("step %d: the placement's cell r%dc%d has class %q", i+1, pl.Row, pl.Col, cls)
		}
	}
	weak := 0
	for _, l := range st.Links {
		if !l.Strong {
			weak++
		}
	}
	lines := eval[[]int](t, b, `[document.querySelectorAll("#grid svg.links line").length, document.querySelectorAll("#grid svg.links line.weak").length]`)
	if len(lines) != 2 || lines[0] != len(st.Links) || lines[1] != weak {
		t.Errorf("step %d: drawn lines (all, weak) %v, want %d links, %d weak", i+1, lines, len(st.Links), weak)
	}
	if text := eval[string](t, b, `document.getElementById("hint-text").textContent`); !strings.HasSuffix(text, st.Text) {
		t.Errorf("step %d says %q, want %q", i+1, text, st.Text)
	}
}

// The hints of stored 6x6 and 12x12 puzzles in the page: every step of
// the 6x6 solve highlights its cells, and an applied step shows its
// values as the grid's symbols (B for 11 on 12x12).
func TestBrowserSizedHints(t *testing.T) {
	fams := append(banktest.MustSizedBuilt(t, 6, []grade.Level{grade.Difficult}, 1),
		banktest.MustSizedBuilt(t, 12, []grade.Level{grade.ExtremelyEasy}, 1)...)
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, fams), server.Options{})

	// A bank of several sizes is browsed by size, each row says its size,
	// and the counts of the filter are those of the size chosen.
	t.Run("BrowseBySize", func(t *testing.T) {
		var stats struct {
			Sizes []struct {
				Size    int `json:"size"`
				Puzzles int `json:"puzzles"`
				Buckets []struct {
					Givens  int `json:"givens"`
					Puzzles int `json:"puzzles"`
				} `json:"buckets"`
			} `json:"sizes"`
		}
		MustGet(t, ts.URL+"/api/v1/stats", &stats)
		b.do(t, chromedp.Navigate(ts.URL+"/"), wait(`document.querySelectorAll("#results tbody a").length > 0`))
		want := []string{"any size"}
		for _, s := range stats.Sizes {
			want = append(want, fmt.Sprintf("%dx%d (%d)", s.Size, s.Size, s.Puzzles))
		}
		got := eval[[]string](t, b, `[...document.querySelectorAll("#f-size option")].map(o => o.textContent)`)
		if !slices.Equal(got, want) || eval[bool](t, b, `document.getElementById("f-size-field").hidden`) {
			t.Fatalf("size options %v, want %v shown", got, want)
		}
		six := stats.Sizes[0]
		b.do(t, chromedp.Evaluate[chromedp.Void](`(() => {
			const f = document.getElementById("f-size");
			f.value = "6";
			f.dispatchEvent(new Event("change", {bubbles: true}));
		})()`))
		want = []string{"any number"}
		for _, bk := range six.Buckets {
			want = append(want, fmt.Sprintf("%d (%d)", bk.Givens, bk.Puzzles))
		}
		if got := eval[[]string](t, b, `[...document.querySelectorAll("#f-givens option")].map(o => o.textContent)`); six.Size != 6 || !slices.Equal(got, want) {
			t.Errorf("givens options of 6x6 %v, want %v", got, want)
		}
		b.do(t, chromedp.Click(chromedp.CSS(`#filter button[type="submit"]`)),
			wait(`location.search === "?size=6" && document.querySelectorAll("#results tbody tr").length === `+fmt.Sprint(six.Puzzles)))
		if sizes := eval[[]string](t, b, `[...document.querySelectorAll("#results tbody td.size")].map(td => td.textContent)`); slices.ContainsFunc(sizes, func(s string) bool { return s != "6x6" }) {
			t.Errorf("the 6x6 filter lists sizes %v", sizes)
		}
	})

	// A level chip keeps the size chosen, and counts the puzzles of its
	// level in that size.
	t.Run("LevelChipKeepsSize", func(t *testing.T) {
		var stats struct {
			Sizes []struct {
				Size   int `json:"size"`
				Levels []struct {
					Name    string `json:"name"`
					Puzzles int    `json:"puzzles"`
				} `json:"levels"`
			} `json:"sizes"`
		}
		MustGet(t, ts.URL+"/api/v1/stats", &stats)
		twelve := stats.Sizes[len(stats.Sizes)-1]
		if twelve.Size != 12 || len(twelve.Levels) == 0 {
			t.Fatalf("sizes %+v: want 12x12 last, with a level", stats.Sizes)
		}
		lv := twelve.Levels[0]
		chip := fmt.Sprintf(`#levels a[data-level=%q]`, lv.Name)
		b.do(t, chromedp.Navigate(ts.URL+"/?size=12"), wait(`document.querySelectorAll("#results tbody a").length > 0`))
		if got, want := eval[string](t, b, `document.querySelector('`+chip+` .count').textContent`), fmt.Sprint(lv.Puzzles); got != want {
			t.Errorf("chip %s of 12x12 counts %s, want %s", lv.Name, got, want)
		}
		// Following the chip's link is what a click does.
		href := eval[string](t, b, `document.querySelector('`+chip+`').href`)
		if want := ts.URL + "/?size=12&level=" + strings.ReplaceAll(lv.Name, " ", "+"); href != want {
			t.Fatalf("the chip of %s links to %q, want %q", lv.Name, href, want)
		}
		b.do(t, chromedp.Navigate(href), wait(`document.querySelectorAll("#results tbody a").length > 0`))
		if got := eval[string](t, b, `document.getElementById("f-size").value`); got != "12" {
			t.Errorf("after the chip the size filter is %q, want 12", got)
		}
		if sizes := eval[[]string](t, b, `[...document.querySelectorAll("#results tbody td.size")].map(td => td.textContent)`); len(sizes) != lv.Puzzles || slices.ContainsFunc(sizes, func(s string) bool { return s != "12x12" }) {
			t.Errorf("the chip lists sizes %v, want %d of 12x12", sizes, lv.Puzzles)
		}
	})

	for _, tt := range []struct {
		n, steps int // steps: how many steps to walk through, 0 for all
	}{{6, 0}, {12, 12}} {
		t.Run(fmt.Sprintf("%dx%d", tt.n, tt.n), func(t *testing.T) {
			var pg page
			MustGet(t, fmt.Sprintf("%s/api/v1/puzzles?size=%d&limit=1&solution=1", ts.URL, tt.n), &pg)
			if len(pg.Puzzles) != 1 {
				t.Fatalf("no %dx%d puzzle", tt.n, tt.n)
			}
			id := pg.Puzzles[0].ID
			var hints struct {
				Steps []hintStep `json:"steps"`
			}
			MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, id), &hints)
			steps := hints.Steps
			if tt.steps > 0 && len(steps) > tt.steps {
				steps = steps[:tt.steps]
			}
			b.do(t, chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", ts.URL, id)), chromedp.WaitVisible(cellSel(tt.n, tt.n)),
				chromedp.Click(chromedp.CSS("#hint-next")))
			// Every step is shown, applied, and the next one shows.
			for i, st := range steps {
				checkHintShown(t, b, hints.Steps, i)
				b.do(t, chromedp.Click(chromedp.CSS("#hint-apply")))
				for _, pl := range st.Placements {
					got := eval[string](t, b, fmt.Sprintf(`document.querySelector('%s .v').textContent`, cellSel(pl.Row, pl.Col)))
					if want := string(grid.Symbol(uint8(pl.Digit))); got != want {
						t.Errorf("applied step %d: r%dc%d shows %q, want %s", i+1, pl.Row, pl.Col, got, want)
					}
				}
			}
			// Walked to the end, the hints have filled the grid.
			if tt.steps == 0 {
				shown := eval[string](t, b, `[...document.querySelectorAll("[data-cell] .v")].map(v => v.textContent).join("")`)
				if want := pg.Puzzles[0].Solution; shown != want {
					t.Errorf("after every step the grid shows\n%s\nwant the solution\n%s", shown, want)
				}
			}
		})
	}
}

// A chain step's links are drawn over the grid: a line for each link,
// weak ones dashed (checkHintShown counts them), and none for the steps
// before it.
func TestBrowserChainLinks(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, []store.NewFamily{MustChainFamily(t)}), server.Options{})
	var pg page
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=1", &pg)
	if len(pg.Puzzles) != 1 {
		t.Fatal("no puzzle")
	}
	id := pg.Puzzles[0].ID
	var hints struct {
		Steps []hintStep `json:"steps"`
	}
	MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, id), &hints)
	chain := slices.IndexFunc(hints.Steps, func(st hintStep) bool { return len(st.Links) > 0 })
	if chain < 0 {
		t.Fatal("no step with links")
	}
	b.do(t, chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", ts.URL, id)), chromedp.WaitVisible(cellSel(9, 9)),
		chromedp.Click(chromedp.CSS("#hint-next")))
	for i := 0; i <= chain; i++ {
		checkHintShown(t, b, hints.Steps, i)
		if i < chain {
			b.do(t, chromedp.Click(chromedp.CSS("#hint-apply")))
		}
	}
	MustScreenshot(t, b, "puzzle-chain-links.png")
}

// A filter few puzzles match, on a server whose pages read a small
// window of IDs, lists its first match, not "No puzzle matches": the
// page reads on past the empty pages the API gives before it.
func TestBrowserSparseFilter(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	path := MustBank(t, MustFixture(t))
	ts := MustServer(t, path, server.Options{ScanWindow: 5})
	// A number of givens whose first match lies past the first window.
	full := MustServer(t, path, server.Options{})
	filter := ""
	var want page
	for n := 17; n <= 81 && filter == ""; n++ {
		var first page
		q := fmt.Sprintf("givens=%d", n)
		MustGet(t, ts.URL+"/api/v1/puzzles?limit=50&"+q, &first)
		MustGet(t, full.URL+"/api/v1/puzzles?limit=50&"+q, &want)
		if len(first.Puzzles) == 0 && first.More && len(want.Puzzles) > 0 {
			filter = q
		}
	}
	if filter == "" {
		t.Fatal("no number of givens has its first match past the first window")
	}
	b.do(t, chromedp.Navigate(ts.URL+"/?"+filter), wait(`document.querySelectorAll("#results tbody tr").length > 0`))
	ids := eval[[]string](t, b, `[...document.querySelectorAll("#results tbody a")].map(a => a.textContent.slice(1))`)
	if len(ids) == 0 || ids[0] != fmt.Sprint(want.Puzzles[0].ID) {
		t.Errorf("%s: the page lists %v, want the first match, %d, first", filter, ids, want.Puzzles[0].ID)
	}
}

// More goes on with the filter of the list shown, not the form as edited
// since and not submitted: a cursor is its filter's alone, and the
// server refuses one of another filter on families (technique).
func TestBrowserMoreKeepsFilter(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	path := MustBank(t, MustVariantFamilies(t, MustFixture(t), 2, 3))
	ts := MustServer(t, path, server.Options{})
	var st struct {
		Techniques []struct {
			Technique string `json:"technique"`
			Puzzles   int64  `json:"puzzles"`
		} `json:"techniques"`
	}
	MustGet(t, ts.URL+"/api/v1/stats", &st)
	// The technique the most puzzles use, and another.
	most := map[string]int64{}
	for _, e := range st.Techniques {
		most[e.Technique] += e.Puzzles
	}
	var shown, other string
	for k, n := range most {
		if shown == "" || n > most[shown] || n == most[shown] && k < shown {
			shown = k
		}
	}
	for k := range most {
		if k != shown && (other == "" || k < other) {
			other = k
		}
	}
	var want page
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=100&technique="+shown, &want)
	if len(want.Puzzles) <= 50 || other == "" {
		t.Fatalf("technique %s: %d puzzles, want more than a page of 50 (and another technique, %q)", shown, len(want.Puzzles), other)
	}
	b.do(t, chromedp.Navigate(ts.URL+"/?technique="+shown), wait(`document.querySelectorAll("#results tbody tr").length === 50`))
	b.do(t, chromedp.SetValue(chromedp.CSS("#f-technique"), other), chromedp.Click(chromedp.CSS("#more")),
		wait(`document.querySelectorAll("#results tbody tr").length > 50 || document.getElementById("status").textContent !== ""`))
	if s := eval[string](t, b, `document.getElementById("status").textContent`); s != "" {
		t.Errorf("More after editing the form says %q", s)
	}
	ids := eval[[]string](t, b, `[...document.querySelectorAll("#results tbody a")].map(a => a.textContent.slice(1))`)
	var wantIDs []string
	for _, p := range want.Puzzles[:min(len(want.Puzzles), 100)] {
		wantIDs = append(wantIDs, fmt.Sprint(p.ID))
	}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("after More the page lists %v, want the first %d of technique %s, %v", ids, len(wantIDs), shown, wantIDs)
	}
}
