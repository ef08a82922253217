package export_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sudokubank/export"
	"sudokubank/export/exporttest"
)

// MustPDF writes items as a PDF and returns it.
func MustPDF(tb testing.TB, items []export.Item, opt export.Options) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := export.Write(context.Background(), &buf, export.PDF, items, opt); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

var (
	countRE = regexp.MustCompile(`/Type /Pages /Count (\d+)`)
	pageRE  = regexp.MustCompile(`/Type /Page\b[^s]`)
)

func TestPDFPages(t *testing.T) {
	tests := []struct {
		page    string
		perPage int
		n       int
		title   string
		want    int // title + puzzle pages + a blank page to put the answers on an odd page + answer pages
	}{
		{"letter", 1, 7, "", 0 + 7 + 1 + 1},
		{"letter", 2, 7, "Seven", 1 + 4 + 1 + 1},
		{"letter", 4, 25, "", 0 + 7 + 1 + 3},
		{"letter", 0, 25, "", 0 + 7 + 1 + 3}, // 0 means 4
		{"a4", 6, 13, "Thirteen", 1 + 3 + 0 + 2},
		{"a4", 4, 12, "", 0 + 3 + 1 + 1},
		{"6x9", 1, 5, "Five", 1 + 5 + 0 + 1},
		{"6x9", 2, 13, "", 0 + 7 + 1 + 3},
		{"6x9", 4, 8, "", 0 + 2 + 0 + 2},
		{"6x9", 6, 13, "", 0 + 3 + 1 + 3},
		{"", 6, 12, "", 0 + 2 + 0 + 1},
		{"8x10", 4, 9, "", 0 + 3 + 1 + 1},
		{"7x10", 6, 6, "", 0 + 1 + 1 + 1},
		{"5.5x8.5", 2, 4, "", 0 + 2 + 0 + 1},
		{"a5", 1, 6, "", 0 + 6 + 0 + 1},
		{"8.5x11", 4, 8, "", 0 + 2 + 0 + 1},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s_%dPerPage_%d", tt.page, tt.perPage, tt.n)
		if tt.title != "" {
			name += "_Title"
		}
		t.Run(name, func(t *testing.T) {
			opt := export.Options{Title: tt.title, PDF: export.PDFOptions{Page: tt.page, PerPage: tt.perPage}}
			pdf := MustPDF(t, MustManyItems(t, tt.n), opt)
			m := countRE.FindSubmatch(pdf)
			if m == nil {
				t.Fatal("no page tree")
			}
			if got := string(m[1]); got != strconv.Itoa(tt.want) {
				t.Errorf("page tree counts %s pages, want %d", got, tt.want)
			}
			if got := len(pageRE.FindAll(pdf, -1)); got != tt.want {
				t.Errorf("got %d page objects, want %d", got, tt.want)
			}
			if got, err := export.PDFPages(tt.n, opt); err != nil || got != tt.want {
				t.Errorf("PDFPages = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

func TestPDFText(t *testing.T) {
	items := MustManyItems(t, 9)
	opt := export.Options{Title: "Nine (test) puzzles", PDF: export.PDFOptions{Page: "a4", PerPage: 4}}
	texts := exporttest.PDFTexts(t, MustPDF(t, items, opt))
	all := "\n" + strings.Join(texts, "\n") + "\n"
	// Title page, 3 puzzle pages (2-4), 1 answer page (5).
	for _, want := range []string{
		`Nine (test) puzzles`, "9 puzzles with answers", "Answers begin on page 5",
		"Puzzle 1", "Puzzle 9", "Extremely easy – SE 1.5", "Evil – SE 9.0",
		"Answers", "2", "3", "4", "5",
	} {
		if !strings.Contains(all, "\n"+want+"\n") {
			t.Errorf("no text %q in the PDF", want)
		}
	}
	// Each puzzle's number appears once on the puzzle pages and once in
	// the answer key.
	for i := 1; i <= 9; i++ {
		if got := strings.Count(all, fmt.Sprintf("\nPuzzle %d\n", i)); got != 1 {
			t.Errorf("puzzle %d is labelled %d times, want 1", i, got)
		}
	}
	// The title page shows no page number: the first number is 2.
	if strings.Contains(all, "\n1\nPuzzle") {
		t.Errorf("title page numbered")
	}
}

func TestPDFFontEmbedded(t *testing.T) {
	pdf := MustPDF(t, MustItems(t), export.Options{})
	for _, want := range []string{"/FontFile2", "/Subtype /TrueType", "/BaseFont /GoRegular", "/BaseFont /Go-Bold", "/Widths ["} {
		if !bytes.Contains(pdf, []byte(want)) {
			t.Errorf("PDF lacks %s", want)
		}
	}
	if got := bytes.Count(pdf, []byte("/FontFile2")); got != 2 {
		t.Errorf("got %d embedded font files, want 2", got)
	}
}

func TestPDFDeterministic(t *testing.T) {
	items := MustManyItems(t, 10)
	opt := export.Options{Title: "Same", PDF: export.PDFOptions{Page: "6x9", PerPage: 2}}
	if !bytes.Equal(MustPDF(t, items, opt), MustPDF(t, items, opt)) {
		t.Error("two runs on the same items gave different PDFs")
	}
}

// TestPDFPoppler checks the PDF with poppler's tools, when they are
// installed (apt-get install poppler-utils): it must parse, have the
// pages we count, embed its fonts, and show its numbering as text.
func TestPDFPoppler(t *testing.T) {
	for _, tool := range []string{"pdfinfo", "pdffonts", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pack.pdf")
	opt := export.Options{Title: "Poppler check", PDF: export.PDFOptions{Page: "6x9", PerPage: 2}}
	if err := os.WriteFile(path, MustPDF(t, MustManyItems(t, 7), opt), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		if bytes.Contains(out, []byte("Syntax Error")) || bytes.Contains(out, []byte("Syntax Warning")) {
			t.Errorf("%s complains:\n%s", name, out)
		}
		return string(out)
	}
	info := run("pdfinfo", path)
	if !regexp.MustCompile(`(?m)^Pages:\s+8$`).MatchString(info) { // 1 + 4 + 1 blank + 2
		t.Errorf("pdfinfo:\n%s\nwant Pages: 8", info)
	}
	if !regexp.MustCompile(`(?m)^Page size:\s+432 x 648 pts`).MatchString(info) {
		t.Errorf("pdfinfo:\n%s\nwant a 6x9 in page (432 x 648 pts)", info)
	}
	fonts := run("pdffonts", path)
	for _, name := range []string{"GoRegular", "Go-Bold"} {
		if !regexp.MustCompile(`(?m)^` + name + `\s+TrueType\s+WinAnsi\s+yes`).MatchString(fonts) {
			t.Errorf("pdffonts:\n%s\nwant %s embedded", fonts, name)
		}
	}
	text := run("pdftotext", "-layout", path, "-")
	for _, want := range []string{"Poppler check", "Puzzle 1", "Puzzle 7", "Answers", "Medium – SE 3.4"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdftotext finds no %q", want)
		}
	}
}

// TestPDFSamples writes sample PDFs for a person to look at when
// EXPORT_PDF_DIR names a directory; otherwise it does nothing.
func TestPDFSamples(t *testing.T) {
	dir := os.Getenv("EXPORT_PDF_DIR")
	if dir == "" {
		t.Skip("EXPORT_PDF_DIR not set")
	}
	for _, page := range export.PageSizes() {
		for _, per := range []int{1, 2, 4, 6} {
			opt := export.Options{Title: "Sudoku Sampler: Forty Puzzles from Easy to Evil", PDF: export.PDFOptions{Page: page, PerPage: per}}
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.pdf", page, per))
			if err := os.WriteFile(path, MustPDF(t, MustManyItems(t, 40), opt), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A print-on-demand book: large print, bleed, a gutter by page
	// count, a copyright page, a title in three scripts.
	book := export.Options{Title: "Sudoku – Судоку – Σουντόκου", PDF: export.PDFOptions{Page: "6x9", LargePrint: true,
		Bleed: true, Gutter: "auto", Copyright: "Copyright © 2026 Acme Books.\nAll rights reserved."}}
	if err := os.WriteFile(filepath.Join(dir, "6x9-large-print.pdf"), MustPDF(t, MustManyItems(t, 41), book), 0o644); err != nil {
		t.Fatal(err)
	}
	// A full-size pack, to check with qpdf --check or a viewer.
	if testing.Short() {
		return
	}
	opt := export.Options{Title: "Ten Thousand Puzzles", PDF: export.PDFOptions{Page: "letter", PerPage: 4}}
	if err := export.WriteFile(context.Background(), filepath.Join(dir, "letter-4-10000.pdf"), export.PDF, MustManyItems(t, 10000), opt, true); err != nil {
		t.Fatal(err)
	}
}
