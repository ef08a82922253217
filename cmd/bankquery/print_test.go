package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/export"
	"sudokubank/export/exporttest"
)

// The print preset flags reach the PDF: trim size with bleed, large
// print, caption, copyright page, numbering from -first-number, a title
// in Cyrillic and Greek, and the page count the report gives.
func TestExportPrintPresets(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	const title = "Судоку Σουντόκου"
	tests := []struct {
		name  string
		extra []string
		opt   export.PDFOptions
	}{
		{"Book", []string{"-page", "6x9", "-bleed", "-gutter", "auto", "-large-print", "-caption", "level", "-copyright", "© 2026 Acme"},
			export.PDFOptions{Page: "6x9", Bleed: true, Gutter: "auto", LargePrint: true, Caption: "level", Copyright: "© 2026 Acme"}},
		{"NoAnswers", []string{"-page", "a5", "-no-answers", "-per-page", "1"},
			export.PDFOptions{Page: "a5", NoAnswers: true, PerPage: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".pdf")
			args := append([]string{"export", "-db", db, "-count", "5", "-format", "pdf", "-out", out, "-seed", "3",
				"-title", title, "-first-number", "101"}, tt.extra...)
			msg := mustRun(t, args...)
			pdf, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			doc := exporttest.ReadPDF(t, pdf)
			want, err := export.PDFPages(5, export.Options{Title: title, PDF: tt.opt})
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Pages) != want || !strings.Contains(msg, fmt.Sprintf("5 puzzles, %d pages", want)) {
				t.Errorf("%d pages, report %q; want %d", len(doc.Pages), msg, want)
			}
			if doc.Title != title {
				t.Errorf("Info title %q, want %q", doc.Title, title)
			}
			texts := "\n" + strings.Join(exporttest.PDFTexts(t, pdf), "\n") + "\n"
			for i := 101; i <= 105; i++ {
				if !strings.Contains(texts, fmt.Sprintf("\nPuzzle %d\n", i)) {
					t.Errorf("no puzzle %d in the book", i)
				}
			}
			for _, bad := range []string{"\nPuzzle 1\n", "\nPuzzle 106\n"} {
				if strings.Contains(texts, bad) {
					t.Errorf("the book shows %q", strings.TrimSpace(bad))
				}
			}
			if !strings.Contains(texts, "\n"+title+"\n") {
				t.Errorf("title %q not shown", title)
			}
			if tt.opt.Bleed {
				if got := doc.Pages[0].MediaBox; got != [4]float64{0, 0, 441, 666} {
					t.Errorf("MediaBox %v, want 6.125 x 9.25 in", got)
				}
				if !strings.Contains(texts, "\n© 2026 Acme\n") || strings.Contains(texts, " – SE ") {
					t.Errorf("no copyright page, or a rating in a level caption:%s", texts)
				}
			}
			if strings.Contains(texts, "\nAnswers\n") == tt.opt.NoAnswers {
				t.Errorf("answer key shown: %v, want %v", !tt.opt.NoAnswers, !tt.opt.NoAnswers)
			}
		})
	}
}

// -first-number numbers every format, not only the PDF.
func TestExportFirstNumber(t *testing.T) {
	db := MustBank(t)
	out := mustRun(t, "export", "-db", db, "-count", "3", "-format", "csv", "-out", "-", "-no-record", "-seed", "1", "-first-number", "41")
	lines := strings.Split(strings.TrimSpace(out), "\r\n")
	var got []string
	for _, l := range lines[1:] {
		got = append(got, strings.SplitN(l, ",", 2)[0])
	}
	if fmt.Sprint(got) != "[41 42 43]" {
		t.Errorf("numbers %v, want [41 42 43]", got)
	}
}

// What the PDF options refuse exits 2, naming the flag and its value;
// nothing is recorded.
func TestExportPrintPresetErrors(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	pdf := func(extra ...string) []string {
		return append([]string{"export", "-db", db, "-format", "pdf", "-out", filepath.Join(dir, "x.pdf"), "-count", "3"}, extra...)
	}
	csv := func(extra ...string) []string {
		return append([]string{"export", "-db", db, "-format", "csv", "-out", filepath.Join(dir, "x.csv"), "-count", "3"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"HanTitle", pdf("-title", "数独"), `-title "数独": character U+6570 '数' is not in the embedded font`},
		{"HanCopyright", pdf("-copyright", "© 中国"), `-copyright "© 中国": character U+4E2D '中' is not in the embedded font`},
		{"Gutter", pdf("-gutter", "wide"), `-gutter "wide": want auto or a length such as 0.5in`},
		{"Caption", pdf("-caption", "all"), `-caption "all": want none, level, rating or full`},
		{"LargePrintFour", pdf("-large-print", "-per-page", "4"), `-per-page "4": want 1 or 2 in large print`},
		{"FirstNumberZero", pdf("-first-number", "0"), `-first-number "0": want 1 to`},
		{"BleedNotPDF", csv("-bleed"), "-bleed: only with -format pdf"},
		{"CaptionNotPDF", csv("-caption", "none"), "-caption: only with -format pdf"},
		{"CopyrightNotPDF", csv("-copyright", "x"), "-copyright: only with -format pdf"},
		{"NoIDsNotPDF", csv("-no-ids"), "-no-ids: only with -format pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
				t.Errorf("exit %d, error %v; want 2 and %q", r.code, r.err, tt.want)
			}
		})
	}
	if packs := MustPacks(t, db); len(packs) != 0 {
		t.Errorf("refused exports recorded %d packs", len(packs))
	}
	// A title the PDF refuses is fine where no font is involved.
	mustRun(t, csv("-title", "数独")...)
}

// A PDF prints each puzzle's bank ID under its grid and beside its
// answer, the IDs of the pack's own puzzles; packs export -no-ids prints
// the same book without them.
func TestExportPDFIDs(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	book, list := filepath.Join(dir, "book.pdf"), filepath.Join(dir, "ids.csv")
	mustRun(t, "export", "-db", db, "-count", "5", "-format", "pdf", "-out", book, "-seed", "3", "-pack", "ids")
	mustRun(t, "packs", "export", "ids", "-db", db, "-format", "csv", "-out", list)
	pdf, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	texts := "\n" + strings.Join(exporttest.PDFTexts(t, pdf), "\n") + "\n"
	recs := MustCSV(t, list)[1:]
	if len(recs) != 5 {
		t.Fatalf("the pack lists %d puzzles, want 5", len(recs))
	}
	for _, rec := range recs {
		if id := "\nID " + rec[1] + "\n"; strings.Count(texts, id) != 2 {
			t.Errorf("the book shows %q %d times, want twice (grid and answer)", strings.TrimSpace(id), strings.Count(texts, id))
		}
	}
	if n := strings.Count(texts, "\nID "); n != 10 {
		t.Errorf("the book shows %d IDs, want 10", n)
	}

	bare := filepath.Join(dir, "bare.pdf")
	mustRun(t, "packs", "export", "ids", "-db", db, "-format", "pdf", "-out", bare, "-no-ids")
	pdf, err = os.ReadFile(bare)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range exporttest.PDFTexts(t, pdf) {
		if strings.HasPrefix(s, "ID ") {
			t.Errorf("with -no-ids the book shows %q", s)
		}
	}
}
