package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sudokubank/server"
)

// keyDown is a key press as a keyboard layout reports it: the character
// typed, the physical key, Shift, and NumLock's state.
type keyDown struct {
	Key     string `json:"key"`
	Code    string `json:"code"`
	Shift   bool   `json:"shiftKey"`
	NumLock bool   `json:"modifierNumLock"`
}

// press sends k to the focused element as a keydown the page's handlers
// see. (DevTools' key events cannot set NumLock, which Windows' Shift
// with a keypad digit needs.)
func press(k keyDown) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.activeElement.dispatchEvent(new KeyboardEvent("keydown", {key: %q, code: %q, shiftKey: %v, modifierNumLock: %v, bubbles: true, cancelable: true}))`,
		k.Key, k.Code, k.Shift, k.NumLock))
}

// cellState is what cell r,c shows: its value and its pencil marks.
func cellState(t *testing.T, b *browser, r, c int) (value, marks string) {
	t.Helper()
	got := eval[[]string](t, b, fmt.Sprintf(`(() => {
		const c = document.querySelector('%s');
		return [c.querySelector(".v").textContent, [...c.querySelectorAll(".cands span")].filter(s => !s.className).map(s => s.textContent).join("")];
	})()`, cellSel(r, c)))
	return got[0], got[1]
}

// The value a key enters is the character it types, whatever the layout
// took to type it, and its key's other character pencils it in: on
// AZERTY, where digits take Shift, Shift+1 enters 1 and the key alone
// ("&") pencils 1 in, the reverse of QWERTY. Keypad digits enter values
// and pencil them in with Shift, also as Windows reports Shift+keypad 1
// (End with NumLock on); with NumLock off the keypad's End moves.
func TestBrowserKeyLayouts(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	for _, tt := range []struct {
		name         string
		n            int
		key          keyDown
		value, marks string // what the cell shows after the key
		moved        string // the cell selected after it, if not the same
	}{
		{"QwertyDigit", 9, keyDown{Key: "3", Code: "Digit3"}, "3", "", ""},
		{"QwertyShiftDigit", 9, keyDown{Key: "#", Code: "Digit3", Shift: true}, "", "3", ""},
		{"AzertyShiftDigit", 9, keyDown{Key: "3", Code: "Digit3", Shift: true}, "3", "", ""},
		{"AzertyDigitKeyAlone", 9, keyDown{Key: `"`, Code: "Digit3"}, "", "3", ""},
		{"AzertyAccentedKey", 9, keyDown{Key: "é", Code: "Digit2"}, "", "2", ""},
		{"Keypad", 9, keyDown{Key: "7", Code: "Numpad7", NumLock: true}, "7", "", ""},
		{"ShiftKeypad", 9, keyDown{Key: "7", Code: "Numpad7", Shift: true, NumLock: true}, "", "7", ""},
		{"WindowsShiftKeypad", 9, keyDown{Key: "End", Code: "Numpad1", NumLock: true}, "", "1", ""},
		{"KeypadEndNumLockOff", 9, keyDown{Key: "End", Code: "Numpad1"}, "", "", "2,9"},
		{"Letter", 16, keyDown{Key: "b", Code: "KeyB"}, "B", "", ""},
		{"ShiftLetter", 16, keyDown{Key: "B", Code: "KeyB", Shift: true}, "", "B", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, "1"+strings.Repeat(".", tt.n*tt.n-1))),
				chromedp.Click(cellSel(2, 2)), press(tt.key))
			v, m := cellState(t, b, 2, 2)
			at := eval[string](t, b, `document.activeElement.dataset.cell || document.activeElement.id`)
			want := tt.moved
			if want == "" {
				want = "2,2"
			}
			if v != tt.value || m != tt.marks || at != want {
				t.Errorf("key %+v in r2c2: value %q, marks %q, focus on %s; want value %q, marks %q, focus on %s",
					tt.key, v, m, at, tt.value, tt.marks, want)
			}
		})
	}
}

// The pad is one Tab stop, a toolbar whose arrows move between its
// buttons: from the grid to Undo takes four Tabs on 25x25, not 28.
func TestBrowserPadToolbar(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sudokubank.mount(%q)`, "1"+strings.Repeat(".", 25*25-1))),
		chromedp.Click(cellSel(1, 2)))
	focused := func() string {
		return eval[string](t, b, `document.activeElement.id || (document.activeElement.closest("#pad") ? "pad " + document.activeElement.textContent : document.activeElement.tagName)`)
	}
	tabs := 0
	for ; tabs < 40 && focused() != "undo"; tabs++ {
		b.do(t, chromedp.KeyEvent(kb.Tab))
	}
	if tabs != 4 {
		t.Errorf("%d Tabs from the grid to Undo on 25x25, want 4 (pad, Pencil, Erase, Undo)", tabs)
	}
	if got := eval[string](t, b, `document.getElementById("pad").getAttribute("role")`); got != "toolbar" {
		t.Errorf("the pad's role is %q, want toolbar", got)
	}

	// Within the pad: the arrows, Home and End; Up and Down go a row of
	// the pad as it wraps.
	cols := eval[int](t, b, `(() => { const bs = [...document.querySelectorAll("#pad button")]; return bs.filter(x => x.offsetTop === bs[0].offsetTop).length; })()`)
	b.do(t, chromedp.KeyEvent(kb.Tab+kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)),
		chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	for i, tt := range []struct {
		name, key string
		want      string
	}{
		{"ArrowRight", kb.ArrowRight, "2"}, {"ArrowRight", kb.ArrowRight, "3"}, {"ArrowLeft", kb.ArrowLeft, "2"},
		{"End", kb.End, "P"}, {"ArrowRight at the end", kb.ArrowRight, "P"}, {"Home", kb.Home, "1"},
		{"ArrowLeft at the start", kb.ArrowLeft, "1"}, {"ArrowDown", kb.ArrowDown, symbolOf(1 + cols)},
		{"ArrowUp", kb.ArrowUp, "1"}, {"ArrowRight", kb.ArrowRight, "2"},
	} {
		b.do(t, chromedp.KeyEvent(tt.key))
		if got := focused(); got != "pad "+tt.want {
			t.Errorf("key %d, %s, in the pad: focus on %q, want pad %s", i+1, tt.name, got, tt.want)
		}
	}
	// The button last focused is the pad's Tab stop, and Enter on it
	// enters its value in the selected cell.
	b.do(t, chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if got := focused(); got != "pad 2" {
		t.Errorf("Tab out of the pad and back: focus on %q, want pad 2", got)
	}
	b.do(t, chromedp.KeyEvent(kb.Enter))
	if v, _ := cellState(t, b, 1, 2); v != "2" {
		t.Errorf("Enter on the pad's 2: r1c2 shows %q, want 2", v)
	}
}

// symbolOf is the grid's symbol of value v: 1 to 9, then A for 10.
func symbolOf(v int) string {
	if v < 10 {
		return fmt.Sprint(v)
	}
	return string(rune('A' + v - 10))
}

// The hint's Previous, Next and Apply buttons are marked disabled with
// aria-disabled, as Undo is, so that the focus stays on Next when the
// last step is reached; one marked so does nothing. The pad's and the
// tools' buttons take taps at once, never as a double-tap zoom.
func TestBrowserHintButtonsKeepFocus(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	p := mustPlayPuzzle(t, ts.URL)
	p.open(t, b, ts.URL)
	state := func() []string {
		return eval[[]string](t, b, `["hint-prev", "hint-next", "hint-apply"].map(id => {
			const e = document.getElementById(id);
			return String(e.disabled) + "/" + e.getAttribute("aria-disabled");
		}).concat([document.activeElement.id])`)
	}
	if got := state(); strings.Join(got[:3], " ") != "false/true false/null false/true" {
		t.Errorf("before any hint, Previous, Next and Apply are (disabled/aria-disabled) %v; want false/true false/null false/true", got[:3])
	}
	b.do(t, chromedp.Focus(chromedp.CSS("#hint-next")))
	for i := 0; i < p.steps; i++ {
		b.do(t, chromedp.KeyEvent(kb.Enter), wait(fmt.Sprintf(`document.getElementById("hint-text").textContent.startsWith("Step %d of %d")`, min(i+1, p.steps), p.steps)))
	}
	got := state()
	if want := []string{"false/false", "false/true", "false/false", "hint-next"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("at the last step, Previous, Next, Apply and the focus are %v; want %v", got, want)
	}
	// Next, marked disabled, does nothing: Previous works.
	b.do(t, chromedp.KeyEvent(kb.Enter))
	if text := eval[string](t, b, `document.getElementById("hint-text").textContent`); !strings.HasPrefix(text, fmt.Sprintf("Step %d of %d", p.steps, p.steps)) {
		t.Errorf("Enter on Next at the last step: the hint says %q", text)
	}
	b.do(t, chromedp.Click(chromedp.CSS("#hint-prev")), wait(fmt.Sprintf(`document.getElementById("hint-text").textContent.startsWith("Step %d of")`, p.steps-1)))

	if got := eval[[]string](t, b, `[...new Set([...document.querySelectorAll("#pad button, #play .tools button")].map(e => getComputedStyle(e).touchAction))]`); strings.Join(got, " ") != "manipulation" {
		t.Errorf("the pad's and tools' buttons have touch-action %v, want manipulation", got)
	}
}
