package export_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubank/export"
	"sudokubank/export/exporttest"
)

// MustReadPDF writes items as a PDF and reads it back.
func MustReadPDF(tb testing.TB, items []export.Item, opt export.Options) exporttest.PDF {
	tb.Helper()
	return exporttest.ReadPDF(tb, MustPDF(tb, items, opt))
}

// pageText joins the texts a page shows, one a line.
func pageText(p exporttest.Page) string {
	var b strings.Builder
	for _, t := range p.Texts {
		b.WriteString("\n" + t.S)
	}
	return b.String() + "\n"
}

// near reports whether a and b agree to a hundredth of a point, the
// precision the writer rounds to.
func near(a, b float64) bool { return math.Abs(a-b) < 0.011 }

func nearBox(a, b [4]float64) bool {
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestPDFTrimSizes(t *testing.T) {
	const in, bleed = 72.0, 9.0
	tests := []struct {
		page string
		w, h float64 // points
	}{
		{"letter", 8.5 * in, 11 * in},
		{"8.5x11", 8.5 * in, 11 * in},
		{"a4", 595.28, 841.89},
		{"8x10", 8 * in, 10 * in},
		{"7x10", 7 * in, 10 * in},
		{"6x9", 6 * in, 9 * in},
		{"5.5x8.5", 5.5 * in, 8.5 * in},
		{"A5", 419.53, 595.28},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.page, ".", "_"), func(t *testing.T) {
			doc := MustReadPDF(t, MustManyItems(t, 6), export.Options{PDF: export.PDFOptions{Page: tt.page, PerPage: 1}})
			for i, p := range doc.Pages {
				if want := [4]float64{0, 0, tt.w, tt.h}; !nearBox(p.MediaBox, want) || !nearBox(p.TrimBox, want) {
					t.Errorf("page %d: MediaBox %v, TrimBox %v; want both %v", i+1, p.MediaBox, p.TrimBox, want)
				}
			}
		})
		t.Run(strings.ReplaceAll(tt.page, ".", "_")+"_Bleed", func(t *testing.T) {
			doc := MustReadPDF(t, MustManyItems(t, 6), export.Options{PDF: export.PDFOptions{Page: tt.page, PerPage: 1, Bleed: true}})
			// The page grows by 0.125 in on the outside edge, top and
			// bottom: the outside is the right of odd pages, the left of
			// even ones.
			media := [4]float64{0, 0, tt.w + bleed, tt.h + 2*bleed}
			for i, p := range doc.Pages {
				trim := [4]float64{0, bleed, tt.w, tt.h + bleed}
				if (i+1)%2 == 0 {
					trim = [4]float64{bleed, bleed, tt.w + bleed, tt.h + bleed}
				}
				if !nearBox(p.MediaBox, media) || !nearBox(p.BleedBox, media) || !nearBox(p.TrimBox, trim) {
					t.Errorf("page %d: MediaBox %v, BleedBox %v, TrimBox %v; want %v, %v, %v",
						i+1, p.MediaBox, p.BleedBox, p.TrimBox, media, media, trim)
				}
				// Nothing is drawn within 0.375 in of the trim's foot
				// or its left edge: KDP's safe zone with bleed.
				for _, x := range p.Texts {
					if x.Y < p.TrimBox[1]+27-0.01 || x.X < p.TrimBox[0]+27-0.01 {
						t.Errorf("page %d: %q at (%g, %g) is within 0.375 in of the trim %v", i+1, x.S, x.X, x.Y, p.TrimBox)
					}
				}
			}
		})
	}
}

// gridOffset returns how far right of the trim box's centre the centre
// of the page's first rectangle (a grid's border) lies.
func gridOffset(t *testing.T, p exporttest.Page) float64 {
	t.Helper()
	if len(p.Rects) == 0 {
		t.Fatal("page draws no grid")
	}
	r := p.Rects[0]
	return r.X + r.W/2 - (p.TrimBox[0]+p.TrimBox[2])/2
}

func TestPDFGutter(t *testing.T) {
	tests := []struct {
		name   string
		page   string
		gutter string
		n      int
		want   float64 // the gutter in points
	}{
		{"LetterDefault", "letter", "", 4, 0},
		{"SixByNineDefault", "6x9", "", 4, 18},
		{"Inches", "letter", "0.5in", 4, 36},
		{"Millimetres", "6x9", "12mm", 4, 12 * 72 / 25.4},
		{"Zero", "6x9", "0", 4, 0},
		{"Auto117Pages", "6x9", "auto", 100, 27},     // 100 + 17 answer pages
		{"Auto234Pages", "6x9", "auto", 200, 36},     // 200 + 34
		{"Auto350Pages", "6x9", "AUTO", 300, 45},     // 300 + 50
		{"Auto152Pages", "6x9", "auto", 129, 36},     // 129 + 1 blank + 22
		{"Auto150Pages", "6x9", "auto", 128, 27},     // 128 + 22
		{"AutoBleed", "8x10", "auto", 10, 27},        // bleed moves the trim, not the gutter
		{"AutoNoAnswers", "6x9", "auto", 160, 36},    // 160 puzzle pages
		{"AutoLetterSmall", "letter", "auto", 3, 27}, // added to the 0.75 in margin
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := export.PDFOptions{Page: tt.page, PerPage: 1, Gutter: tt.gutter, Bleed: tt.name == "AutoBleed", NoAnswers: tt.name == "AutoNoAnswers"}
			opt := export.Options{PDF: o}
			doc := MustReadPDF(t, MustManyItems(t, tt.n), opt)
			if tt.name == "Auto150Pages" && len(doc.Pages) != 150 {
				t.Fatalf("%d pages, want 150 for the boundary case", len(doc.Pages))
			}
			// One puzzle a page centred in the live area: the gutter on
			// the left of odd pages moves it right by half the gutter,
			// on the right of even pages left by as much.
			odd, even := gridOffset(t, doc.Pages[0]), gridOffset(t, doc.Pages[1])
			if !near(odd, tt.want/2) || !near(even, -tt.want/2) {
				t.Errorf("grid centres %.2f and %.2f pt off the trim's centre on pages 1 and 2, want %.2f and %.2f (a %.2f pt gutter, %d pages)",
					odd, even, tt.want/2, -tt.want/2, tt.want, len(doc.Pages))
			}
		})
	}
}

func TestPDFLargePrint(t *testing.T) {
	tests := []struct {
		page    string
		perPage int
		want    int // puzzles a page
	}{
		{"letter", 0, 2}, {"a4", 0, 2}, {"8x10", 0, 2}, {"7x10", 0, 2}, {"6x9", 0, 2},
		{"5.5x8.5", 0, 2}, {"a5", 0, 1}, {"6x9", 1, 1}, {"letter", 1, 1},
	}
	for _, tt := range tests {
		for _, gutter := range []string{"", "auto"} {
			name := fmt.Sprintf("%s_%d_%q", strings.ReplaceAll(tt.page, ".", "_"), tt.perPage, gutter)
			t.Run(name, func(t *testing.T) {
				o := export.PDFOptions{Page: tt.page, PerPage: tt.perPage, LargePrint: true, Gutter: gutter, NoAnswers: true}
				doc := MustReadPDF(t, MustManyItems(t, 4), export.Options{PDF: o})
				if got := len(doc.Pages); got != 4/tt.want {
					t.Errorf("%d pages for 4 puzzles, want %d a page", got, tt.want)
				}
				for i, p := range doc.Pages {
					digits := 0
					for _, x := range p.Texts {
						if len(x.S) == 1 && x.S >= "1" && x.S <= "9" && x.Font == "F2" {
							digits++
							if x.Size < 16 {
								t.Fatalf("page %d: digit %s set at %.2f pt, want 16 or more", i+1, x.S, x.Size)
							}
						}
					}
					if digits == 0 {
						t.Errorf("page %d shows no givens", i+1)
					}
				}
			})
		}
	}
}

func TestPDFNoAnswers(t *testing.T) {
	for _, n := range []int{1, 5, 9} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			opt := export.Options{Title: "No key", PDF: export.PDFOptions{Page: "6x9", PerPage: 2, NoAnswers: true}}
			doc := MustReadPDF(t, MustManyItems(t, n), opt)
			want := 1 + (n+1)/2
			if len(doc.Pages) != want {
				t.Errorf("%d pages, want %d: a title and the puzzle pages", len(doc.Pages), want)
			}
			if got, err := export.PDFPages(n, opt); err != nil || got != want {
				t.Errorf("PDFPages = %d, %v; want %d", got, err, want)
			}
			text := ""
			for _, p := range doc.Pages {
				text += pageText(p)
			}
			for _, bad := range []string{"\nAnswers\n", "with answers", "Answers begin"} {
				if strings.Contains(text, bad) {
					t.Errorf("a book without answers shows %q", bad)
				}
			}
			if !strings.Contains(text, "\n"+fmt.Sprint(n)+" puzzle") {
				t.Errorf("title page does not say the puzzle count")
			}
		})
	}
}

func TestPDFCaption(t *testing.T) {
	tests := []struct {
		caption string
		want    string // the label beside "Puzzle 3" (medium, SE 3.4); "" for none
	}{
		{"", "Medium – SE 3.4"},
		{"full", "Medium – SE 3.4"},
		{"level", "Medium"},
		{"Rating", "SE 3.4"},
		{"none", ""},
	}
	for _, tt := range tests {
		t.Run(tt.caption, func(t *testing.T) {
			opt := export.Options{PDF: export.PDFOptions{PerPage: 6, Caption: tt.caption, NoAnswers: true}}
			texts := MustReadPDF(t, MustItems(t), opt).Pages[0].Texts
			var got []string
			for i, x := range texts {
				if x.S == "Puzzle 3" && i+1 < len(texts) && len(texts[i+1].S) > 1 {
					got = append(got, texts[i+1].S)
				}
			}
			if tt.want == "" && len(got) > 0 || tt.want != "" && (len(got) != 1 || got[0] != tt.want) {
				t.Errorf("label %q beside puzzle 3, want %q", got, tt.want)
			}
		})
	}
}

func TestPDFCopyright(t *testing.T) {
	for _, title := range []string{"Book", ""} {
		t.Run(fmt.Sprintf("Title%v", title != ""), func(t *testing.T) {
			opt := export.Options{Title: title, PDF: export.PDFOptions{
				PerPage: 4, Copyright: "Copyright © 2026 Acme Books.\nAll rights reserved.",
			}}
			doc := MustReadPDF(t, MustManyItems(t, 8), opt)
			at := 0
			if title != "" {
				at = 1
			}
			got := pageText(doc.Pages[at])
			if got != "\nCopyright © 2026 Acme Books.\nAll rights reserved.\n" {
				t.Errorf("page %d shows %q, want the copyright lines and no page number", at+1, got)
			}
			if !strings.Contains(pageText(doc.Pages[at+1]), "\nPuzzle 1\n") {
				t.Errorf("puzzle 1 is not on page %d", at+2)
			}
			if want, _ := export.PDFPages(8, opt); len(doc.Pages) != want {
				t.Errorf("%d pages, PDFPages says %d", len(doc.Pages), want)
			}
		})
	}
}

// The answer key starts on a right-hand (odd) page, after a blank page
// where needed, and the title page says where.
func TestPDFAnswersOnRightHandPage(t *testing.T) {
	for _, title := range []string{"", "T"} {
		for _, copyright := range []string{"", "C"} {
			for _, per := range []int{1, 2, 4, 6} {
				for _, n := range []int{1, 2, 3, 5, 7} {
					name := fmt.Sprintf("Title%v_Copyright%v_%d_%d", title != "", copyright != "", per, n)
					t.Run(name, func(t *testing.T) {
						opt := export.Options{Title: title, PDF: export.PDFOptions{PerPage: per, Copyright: copyright}}
						doc := MustReadPDF(t, MustManyItems(t, n), opt)
						first := 0
						for i, p := range doc.Pages {
							if strings.Contains(pageText(p), "\nAnswers\n") {
								first = i + 1
								break
							}
						}
						if first%2 != 1 {
							t.Fatalf("answers begin on page %d, want an odd page", first)
						}
						if prev := doc.Pages[first-2]; strings.Contains(pageText(prev), "Puzzle") {
							return
						} else if len(prev.Texts) != 0 || len(prev.Rects) != 0 {
							t.Errorf("page %d before the answers is neither a puzzle page nor blank: %q", first-1, pageText(prev))
						}
						if title != "" && !strings.Contains(pageText(doc.Pages[0]), fmt.Sprintf("\nAnswers begin on page %d\n", first)) {
							t.Errorf("title page: %q; want answers on page %d", pageText(doc.Pages[0]), first)
						}
					})
				}
			}
		}
	}
}

// puzzlesPerPage counts the puzzle labels and the answer grids on each
// page.
func puzzlesPerPage(doc exporttest.PDF) (puzzles, answers []int) {
	for _, p := range doc.Pages {
		text := pageText(p)
		switch {
		case strings.Contains(text, "\nAnswers\n"):
			answers = append(answers, len(p.Rects))
		case strings.Contains(text, "\nPuzzle "):
			puzzles = append(puzzles, strings.Count(text, "\nPuzzle "))
		}
	}
	return puzzles, answers
}

func TestPDFNoLonePuzzle(t *testing.T) {
	tests := []struct {
		page             string
		per, n           int
		puzzles, answers string
	}{
		{"letter", 4, 5, "[3 2]", "[5]"},
		{"letter", 4, 9, "[4 3 2]", "[9]"},
		{"letter", 6, 7, "[4 3]", "[7]"},
		{"letter", 4, 8, "[4 4]", "[8]"},
		{"letter", 4, 13, "[4 4 3 2]", "[7 6]"}, // 12 answers a page
		{"6x9", 6, 13, "[6 4 3]", "[6 4 3]"},    // 6 answers a page
		{"letter", 2, 3, "[2 1]", "[3]"},        // two a page cannot avoid it
		{"letter", 4, 1, "[1]", "[1]"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s_%d_%d", tt.page, tt.per, tt.n), func(t *testing.T) {
			doc := MustReadPDF(t, MustManyItems(t, tt.n), export.Options{PDF: export.PDFOptions{Page: tt.page, PerPage: tt.per}})
			p, a := puzzlesPerPage(doc)
			if got := fmt.Sprint(p); got != tt.puzzles {
				t.Errorf("puzzles a page %s, want %s", got, tt.puzzles)
			}
			if got := fmt.Sprint(a); got != tt.answers {
				t.Errorf("answers a page %s, want %s", got, tt.answers)
			}
		})
	}
}

func TestPDFScripts(t *testing.T) {
	tests := []struct{ name, title, copyright string }{
		{"Latin", "Sudoku für Rätselfreunde – Band 2", "© 2026 Ærø Förlag"},
		{"Greek", "Σουντόκου: Αλφάβητο των Γρίφων", "Πνευματικά δικαιώματα © 2026"},
		{"Cyrillic", "Судоку для всей семьи — Том 1", "Все права защищены © 2026"},
		{"Mixed", "Sudoku Судоку Σουντόκου", "Ελληνικά and Русский"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := export.Options{Title: tt.title, PDF: export.PDFOptions{Page: "6x9", Copyright: tt.copyright}}
			pdf := MustPDF(t, MustManyItems(t, 3), opt)
			doc := exporttest.ReadPDF(t, pdf)
			if doc.Title != tt.title {
				t.Errorf("Info title %q, want %q", doc.Title, tt.title)
			}
			if !bytes.Contains(pdf, []byte("/Title <FEFF")) {
				t.Errorf("Info title not written as UTF-16BE with a byte order mark")
			}
			title := strings.ReplaceAll(strings.TrimSpace(pageText(doc.Pages[0])), "\n", " ")
			if !strings.HasPrefix(title, tt.title) {
				t.Errorf("title page shows %q, want %q first", title, tt.title)
			}
			if got := strings.TrimSpace(pageText(doc.Pages[1])); got != tt.copyright {
				t.Errorf("copyright page shows %q, want %q", got, tt.copyright)
			}
			if strings.ContainsRune(title, '?') {
				t.Errorf("title page shows a '?': %q", title)
			}
			if _, err := exec.LookPath("pdftotext"); err != nil {
				return
			}
			path := filepath.Join(t.TempDir(), "book.pdf")
			if err := os.WriteFile(path, pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("pdftotext", "-f", "1", "-l", "2", path, "-").CombinedOutput()
			if err != nil {
				t.Fatalf("pdftotext: %v\n%s", err, out)
			}
			flat := strings.Join(strings.Fields(string(out)), " ")
			for _, want := range []string{tt.title, tt.copyright} {
				if !strings.Contains(flat, strings.Join(strings.Fields(want), " ")) {
					t.Errorf("pdftotext shows %q, want %q in it", flat, want)
				}
			}
		})
	}
}

// FuzzPDFOptions checks that Validate never panics on any option text,
// and that Write takes what Validate accepts.
func FuzzPDFOptions(f *testing.F) {
	f.Add("6x9", "auto", "level", "Книга", "©", 2, true)
	f.Add("letter", "12mm", "", "Title", "", 0, false)
	f.Add("a5", "0x1p-2in", "none", "数独", "a\nb", 4, true)
	items := MustItems(f)[:1]
	f.Fuzz(func(t *testing.T, page, gutter, caption, title, copyright string, perPage int, large bool) {
		opt := export.Options{Title: title, PDF: export.PDFOptions{Page: page, Gutter: gutter, Caption: caption,
			Copyright: copyright, PerPage: perPage, LargePrint: large}}
		err := opt.Validate(export.PDF)
		if err != nil {
			var oe *export.OptionError
			if !errors.As(err, &oe) {
				t.Fatalf("Validate: %v is not an OptionError", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := export.Write(context.Background(), &buf, export.PDF, items, opt); err != nil {
			t.Fatalf("Validate accepted %+v but Write says %v", opt, err)
		}
	})
}

func TestPDFOptionsValidate(t *testing.T) {
	tests := []struct {
		name  string
		opt   export.Options
		field string // the OptionError's Name; "" when valid
		want  string // a part of the message
	}{
		{"Zero", export.Options{}, "", ""},
		{"AllSet", export.Options{Title: "Книга", PDF: export.PDFOptions{Page: "5.5X8.5", PerPage: 2, Bleed: true, Gutter: "1.5cm",
			LargePrint: true, NoAnswers: true, Caption: "LEVEL", Copyright: "© Ω"}}, "", ""},
		{"Points", export.Options{PDF: export.PDFOptions{Gutter: "36pt"}}, "", ""},
		{"BadPage", export.Options{PDF: export.PDFOptions{Page: "legal"}}, "page", "want one of letter, 8.5x11, a4, 8x10, 7x10, 6x9, 5.5x8.5, a5"},
		{"BadPerPage", export.Options{PDF: export.PDFOptions{PerPage: 3}}, "per-page", "want 1, 2, 4 or 6"},
		{"LargePrintFour", export.Options{PDF: export.PDFOptions{PerPage: 4, LargePrint: true}}, "per-page", "want 1 or 2 in large print"},
		{"LargePrintTooSmall", export.Options{PDF: export.PDFOptions{Page: "a5", PerPage: 2, LargePrint: true}}, "per-page", "want 16 pt or more"},
		{"GutterWord", export.Options{PDF: export.PDFOptions{Gutter: "wide"}}, "gutter", "want auto or a length such as 0.5in"},
		{"GutterNoUnit", export.Options{PDF: export.PDFOptions{Gutter: "0.5"}}, "gutter", "want auto or a length"},
		{"GutterInches", export.Options{PDF: export.PDFOptions{Gutter: "2in"}}, "gutter", "want 0 to 1.5 in"},
		{"GutterNegative", export.Options{PDF: export.PDFOptions{Gutter: "-1mm"}}, "gutter", "want 0 to 1.5 in"},
		{"BadCaption", export.Options{PDF: export.PDFOptions{Caption: "all"}}, "caption", "want none, level, rating or full"},
		{"HanTitle", export.Options{Title: "数独 Sudoku"}, "title", "character U+6570 '数' is not in the embedded font (Go Bold)"},
		{"HanCopyright", export.Options{PDF: export.PDFOptions{Copyright: "© 中"}}, "copyright", "character U+4E2D '中' is not in the embedded font (Go Regular)"},
		{"ControlInTitle", export.Options{Title: "a\tb"}, "title", "character U+0009 is a control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opt.Validate(export.PDF)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				MustPDF(t, MustItems(t), tt.opt)
				return
			}
			var oe *export.OptionError
			if !errors.As(err, &oe) || oe.Name != tt.field || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate: %v; want an OptionError for %s saying %q", err, tt.field, tt.want)
			}
			// Write refuses it too, and writes nothing.
			var buf bytes.Buffer
			if err := export.Write(context.Background(), &buf, export.PDF, MustItems(t), tt.opt); err == nil || buf.Len() > 0 {
				t.Errorf("Write: %v and %d bytes; want the error and nothing", err, buf.Len())
			}
			// Other formats take what the PDF refuses.
			if err := tt.opt.Validate(export.CSV); err != nil {
				t.Errorf("Validate(CSV): %v", err)
			}
		})
	}
}

// TestPDFCredits checks that the pack's credits reach the PDF's document
// information, as UTF-16BE text that pdfinfo reads back.
func TestPDFCredits(t *testing.T) {
	date := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	opt := export.Options{Title: "Sudoku", Author: "Ανδρέας Παπαδόπουλος", SourceName: "Acme Books",
		URL: "https://example.com/sudoku", Date: date, PDF: export.PDFOptions{Page: "6x9"}}
	pdf := MustPDF(t, MustManyItems(t, 2), opt)
	for _, want := range []string{"/Author <FEFF", "/Subject <FEFF", "/Keywords <FEFF", "/CreationDate (D:20261127000000Z)"} {
		if !bytes.Contains(pdf, []byte(want)) {
			t.Errorf("PDF has no %s", want)
		}
	}
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		return
	}
	path := filepath.Join(t.TempDir(), "book.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	for _, want := range []string{opt.Author, opt.SourceName, opt.URL} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pdfinfo shows no %q:\n%s", want, out)
		}
	}
}

// Each puzzle's bank ID is printed under its own grid and beside its own
// answer, small but legible, so that an editor can find a printed puzzle
// in the bank; NoIDs leaves every ID out, and an item without an ID
// (one not from a bank) gets none.
func TestPDFIDs(t *testing.T) {
	items := MustManyItems(t, 6) // IDs 1000..1005
	items[5].ID = 0
	opt := export.Options{PDF: export.PDFOptions{PerPage: 6}}
	doc := MustReadPDF(t, items, opt)
	if len(doc.Pages) != 3 {
		t.Fatalf("%d pages, want a puzzle page, a blank and an answer page", len(doc.Pages))
	}
	// find returns the texts of a page that are s.
	find := func(p exporttest.Page, s string) []exporttest.Text {
		var got []exporttest.Text
		for _, x := range p.Texts {
			if x.S == s {
				got = append(got, x)
			}
		}
		return got
	}
	puzzles, answers := doc.Pages[0], doc.Pages[2]
	var labels []exporttest.Text
	for _, it := range items {
		l := find(puzzles, fmt.Sprintf("Puzzle %d", it.Number))
		if len(l) != 1 {
			t.Fatalf("page 1 shows %q %d times, want once", fmt.Sprintf("Puzzle %d", it.Number), len(l))
		}
		labels = append(labels, l[0])
	}
	for i, it := range items {
		id := fmt.Sprintf("ID %d", it.ID)
		got, ans := find(puzzles, id), find(answers, id)
		if it.ID == 0 {
			for _, x := range append(puzzles.Texts, answers.Texts...) {
				if x.S == "ID 0" {
					t.Errorf("an item without an ID is printed as %q", x.S)
				}
			}
			continue
		}
		if len(got) != 1 || len(ans) != 1 {
			t.Errorf("%q is on the puzzle page %d times and on the answer page %d times, want once each", id, len(got), len(ans))
			continue
		}
		for _, x := range []exporttest.Text{got[0], ans[0]} {
			if x.Size < 6 {
				t.Errorf("%q is set at %.2f pt, want 6 pt or more", id, x.Size)
			}
		}
		// Under its own grid: its label is the nearest one above it in
		// its column (the labels start at the grids' left edges).
		var owner *exporttest.Text
		for j := range labels {
			l := &labels[j]
			if l.X <= got[0].X && l.Y > got[0].Y && (owner == nil || l.X > owner.X || l.X == owner.X && l.Y < owner.Y) {
				owner = l
			}
		}
		if owner == nil || owner.S != fmt.Sprintf("Puzzle %d", items[i].Number) {
			t.Errorf("%q at (%.1f, %.1f) is not under puzzle %d's grid (its label is %v)", id, got[0].X, got[0].Y, items[i].Number, owner)
		}
		// Beside its own answer: on the line of the answer's number.
		num := find(answers, fmt.Sprint(it.Number))
		if !slices.ContainsFunc(num, func(n exporttest.Text) bool { return near(n.Y, ans[0].Y) && n.X < ans[0].X }) {
			t.Errorf("%q at (%.1f, %.1f) on the answer page is not on answer %d's line", id, ans[0].X, ans[0].Y, it.Number)
		}
	}

	opt.PDF.NoIDs = true
	for _, p := range MustReadPDF(t, items, opt).Pages {
		for _, x := range p.Texts {
			if strings.HasPrefix(x.S, "ID ") {
				t.Errorf("with NoIDs the PDF shows %q", x.S)
			}
		}
	}
}

// The ID fits between its grid and what is below it, on every page size
// and count a page: under the grid's border, above the label of the
// puzzle under it and above the live area's foot, where the page number is.
func TestPDFIDsFit(t *testing.T) {
	for _, pdf := range []export.PDFOptions{
		{PerPage: 6}, {Page: "6x9", PerPage: 6}, {Page: "a5", PerPage: 4}, {Page: "5.5x8.5", PerPage: 2},
		{Page: "6x9", LargePrint: true, PerPage: 2}, {Page: "a4", PerPage: 1},
	} {
		t.Run(fmt.Sprintf("%s%d%v", pdf.Page, pdf.PerPage, pdf.LargePrint), func(t *testing.T) {
			page := MustReadPDF(t, MustManyItems(t, 6), export.Options{PDF: pdf}).Pages[0]
			ids := 0
			for _, id := range page.Texts {
				if !strings.HasPrefix(id.S, "ID ") {
					continue
				}
				ids++
				top, bottom := id.Y+0.75*id.Size, id.Y-0.25*id.Size
				// The grid over it: the border nearest above in its column.
				var grid *exporttest.Rect
				for i, r := range page.Rects {
					if r.X <= id.X && id.X <= r.X+r.W && r.Y > id.Y && (grid == nil || r.Y < grid.Y) {
						grid = &page.Rects[i]
					}
				}
				if grid == nil || top > grid.Y-0.5 {
					t.Errorf("%q at y %.1f (top %.1f) overlaps its grid %v", id.S, id.Y, top, grid)
				}
				for _, l := range page.Texts {
					if strings.HasPrefix(l.S, "Puzzle ") && l.Y < id.Y && l.X <= id.X && id.X <= l.X+grid.W && l.Y+0.75*l.Size > bottom {
						t.Errorf("%q at y %.1f overlaps %q under it at y %.1f", id.S, id.Y, l.S, l.Y)
					}
				}
				if bottom < page.TrimBox[1]+0.5*72 {
					t.Errorf("%q at y %.1f is within half an inch of the page's foot", id.S, id.Y)
				}
			}
			if ids == 0 {
				t.Error("no ID on the page")
			}
		})
	}
}
