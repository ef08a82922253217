package main_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubank/export"
	"sudokubank/export/exporttest"
	"sudokubank/gen"
	"sudokubank/store"
)

// exportArgs is the export every golden test makes: twelve puzzles of the
// middle levels, a fixed sample, in rising rating.
func exportArgs(db, out, format string) []string {
	return []string{"export", "-db", db, "-level", "easy,medium,difficult", "-count", "12", "-seed", "3",
		"-format", format, "-out", out, "-title", "Golden Pack", "-pack", "golden"}
}

func TestExportGoldenText(t *testing.T) {
	for _, format := range []string{"sdm", "sdk", "opensudoku", "csv", "json"} {
		t.Run(format, func(t *testing.T) {
			db := MustBank(t)
			out := filepath.Join(t.TempDir(), "pack."+format)
			msg := mustRun(t, exportArgs(db, out, format)...)
			if want := fmt.Sprintf("wrote %s (%s, 12 puzzles); recorded as pack 1 \"golden\"\n", out, format); msg != want {
				t.Errorf("export said %q, want %q", msg, want)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "export."+format+".golden", got)

			// The pack's record lists the file's puzzles in the file's order.
			rows := MustPackRows(t, db, 1)
			ids := make([]string, len(rows))
			for i, r := range rows {
				ids[i] = strconv.FormatInt(r.ID, 10)
			}
			if format == "csv" || format == "json" {
				for i, id := range ids {
					if !bytes.Contains(got, []byte(fmt.Sprintf(`"number":%d,"id":%s,`, i+1, id))) &&
						!bytes.Contains(got, []byte(fmt.Sprintf("\n%d,%s,", i+1, id))) {
						t.Errorf("pack position %d is puzzle %s, not found there in the file", i+1, id)
					}
				}
			}

			// An unrecorded export of the same sample writes the same bytes
			// and records nothing more.
			out2 := filepath.Join(t.TempDir(), "pack."+format)
			args := exportArgs(db, out2, format)
			args = append(args[:len(args)-2], "-no-record", "-level", "easy,medium,difficult")
			// Reserve nothing, so the unrecorded sample is the same one.
			r := run(t, args...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			got2, err := os.ReadFile(out2)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, got2) {
				t.Errorf("-no-record wrote other bytes than the recorded export")
			}
			if n := len(MustPacks(t, db)); n != 1 {
				t.Errorf("%d packs after an unrecorded export, want 1", n)
			}
		})
	}
}

func TestExportOrder(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	tests := []struct {
		order string
		less  func(a, b []string) bool // a may not come after b
	}{
		{"rating", func(a, b []string) bool { return num(a[8]) <= num(b[8]) }},
		{"id", func(a, b []string) bool { return num(a[1]) < num(b[1]) }},
		{"random", nil},
	}
	for _, tt := range tests {
		t.Run(tt.order, func(t *testing.T) {
			out := filepath.Join(dir, tt.order+".csv")
			mustRun(t, "export", "-db", db, "-count", "40", "-order", tt.order, "-seed", "11", "-format", "csv", "-out", out, "-no-record")
			recs := MustCSV(t, out)
			if len(recs) != 41 {
				t.Fatalf("%d CSV records, want a header and 40", len(recs))
			}
			families := map[string]bool{}
			for i, rec := range recs[1:] {
				if families[rec[2]] {
					t.Errorf("family %s twice in one pack", rec[2])
				}
				families[rec[2]] = true
				if tt.less != nil && i > 0 && !tt.less(recs[i], rec) {
					t.Errorf("-order %s: row %d (%v) after row %d (%v)", tt.order, i+1, rec[:9], i, recs[i][:9])
				}
			}
		})
	}
}

func num(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return x
}

var (
	pagesCountRE = regexp.MustCompile(`/Type /Pages /Count (\d+)`)
)

// A one-page PDF is reported as one page, its noun agreeing with the count.
func TestExportPDFOnePage(t *testing.T) {
	db := MustBank(t)
	out := filepath.Join(t.TempDir(), "one.pdf")
	msg := mustRun(t, "export", "-db", db, "-count", "1", "-format", "pdf", "-no-answers", "-no-record", "-out", out)
	if !strings.Contains(msg, "(pdf, 1 puzzle, 1 page)") {
		t.Errorf("export said %q, want (pdf, 1 puzzle, 1 page)", msg)
	}
}

// The command's wiring of the PDF: the page count the flags ask for, the
// puzzles numbered 1..N in the book, the fonts embedded. Package export
// checks the PDF itself in depth.
func TestExportPDF(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	tests := []struct {
		page    string
		perPage int
		title   string
		n       int
	}{
		{"letter", 4, "Four a Page", 10},
		{"a4", 6, "", 13},
		{"6x9", 1, "Trade", 5},
		{"6x9", 2, "", 7},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s_%d_%d", tt.page, tt.perPage, tt.n)
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(dir, name+".pdf")
			args := []string{"export", "-db", db, "-count", strconv.Itoa(tt.n), "-format", "pdf", "-out", out,
				"-page", tt.page, "-per-page", strconv.Itoa(tt.perPage), "-seed", "5"}
			if tt.title != "" {
				args = append(args, "-title", tt.title)
			}
			msg := mustRun(t, args...)
			pdf, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			want, err := export.PDFPages(tt.n, export.Options{Title: tt.title, PDF: export.PDFOptions{Page: tt.page, PerPage: tt.perPage}})
			if err != nil {
				t.Fatal(err)
			}
			m := pagesCountRE.FindSubmatch(pdf)
			if m == nil || string(m[1]) != strconv.Itoa(want) {
				t.Errorf("page tree %q, want /Count %d", m, want)
			}
			if !strings.Contains(msg, fmt.Sprintf("%d puzzles, %d pages", tt.n, want)) {
				t.Errorf("export said %q, want %d pages", msg, want)
			}
			if got := bytes.Count(pdf, []byte("/FontFile2")); got != 2 {
				t.Errorf("%d embedded font files, want 2", got)
			}
			texts := "\n" + strings.Join(exporttest.PDFTexts(t, pdf), "\n") + "\n"
			for i := 1; i <= tt.n; i++ {
				if got := strings.Count(texts, fmt.Sprintf("\nPuzzle %d\n", i)); got != 1 {
					t.Errorf("\"Puzzle %d\" shown %d times, want 1", i, got)
				}
			}
			if !strings.Contains(texts, "\nAnswers\n") {
				t.Errorf("no answer key")
			}
			if strings.Contains(texts, fmt.Sprintf("\nPuzzle %d\n", tt.n+1)) {
				t.Errorf("the book has a puzzle %d of %d", tt.n+1, tt.n)
			}
			if tt.title != "" && !strings.Contains(texts, "\n"+tt.title+"\n") {
				t.Errorf("title %q not shown", tt.title)
			}
		})
	}
}

// Two clients' packs never share a family, even when every family has
// many variants; a -fresh export takes no family that is in a pack; and
// a client is not given a family twice.
func TestExportExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, path, manyVariantFamilies(t, 24, 12))
	dir := t.TempDir()
	clients := []string{"acme", "globex"}
	exported := 0
	for i := 0; ; i++ {
		client := clients[i%2]
		out := filepath.Join(dir, fmt.Sprintf("%d.sdm", i))
		r := run(t, "export", "-db", path, "-client", client, "-count", "5", "-seed", strconv.Itoa(i), "-format", "sdm", "-out", out)
		if r.code == 1 && strings.Contains(r.err.Error(), "not enough") {
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed export left %s", out)
			}
			break
		}
		if r.err != nil {
			t.Fatal(r.err)
		}
		exported += 5
		if i > 20 {
			t.Fatal("exports never ran out of families")
		}
	}
	if exported < 20 {
		t.Errorf("only %d puzzles exported before the bank ran out, want at least 20 of 24 families", exported)
	}
	// A -fresh export finds only the families no pack has taken.
	left := 24 - exported
	r := run(t, "export", "-db", path, "-fresh", "-count", strconv.Itoa(left+1), "-format", "sdm", "-out", filepath.Join(dir, "fresh.sdm"))
	if want := fmt.Sprintf("%d of %d puzzles match", left, left+1); r.code != 1 || !strings.Contains(r.err.Error(), want) {
		t.Errorf("-fresh export after the clients' packs: code %d, error %v; want 1, %q", r.code, r.err, want)
	}

	owners := map[int64]string{}
	for _, p := range MustPacks(t, path) {
		seen := map[int64]bool{}
		for _, row := range MustPackRows(t, path, p.ID) {
			if seen[row.FamilyID] {
				t.Errorf("pack %d holds family %d twice", p.ID, row.FamilyID)
			}
			seen[row.FamilyID] = true
			if o, ok := owners[row.FamilyID]; ok {
				t.Errorf("family %d in packs for %s and %s", row.FamilyID, o, p.Client)
			}
			owners[row.FamilyID] = p.Client
		}
	}
}

func TestExportFresh(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	mustRun(t, "export", "-db", db, "-level", "5", "-count", "20", "-format", "sdm", "-out", filepath.Join(dir, "a.sdm"), "-seed", "1")
	r := run(t, "export", "-db", db, "-level", "5", "-fresh", "-count", "11", "-format", "sdm", "-out", filepath.Join(dir, "b.sdm"), "-seed", "2")
	if r.code != 1 || !strings.Contains(r.err.Error(), "10 of 11 puzzles match") {
		t.Errorf("second -fresh export: code %d, error %v; want 1 and \"10 of 11 puzzles match\"", r.code, r.err)
	}
	mustRun(t, "export", "-db", db, "-level", "5", "-fresh", "-count", "10", "-format", "sdm", "-out", filepath.Join(dir, "b.sdm"), "-seed", "2")
	families := map[int64]bool{}
	for _, p := range MustPacks(t, db) {
		for _, row := range MustPackRows(t, db, p.ID) {
			if families[row.FamilyID] {
				t.Errorf("family %d in two packs despite -fresh", row.FamilyID)
			}
			families[row.FamilyID] = true
		}
	}
	got := stable(mustRun(t, "packs", "-db", db), dir)
	golden(t, "packs.golden", []byte(got))
}

// manyVariantFamilies takes n fixture families and stores k random
// transforms of each as its variants.
func manyVariantFamilies(tb testing.TB, n, k int) []store.NewFamily {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	fams := MustReadFixture(tb)[:n]
	for i := range fams {
		p := mustGrid(tb, fams[i].Puzzles[0].Puzzle)
		s := mustGrid(tb, fams[i].Puzzles[0].Solution)
		fams[i].Puzzles = fams[i].Puzzles[:1]
		for range k - 1 {
			tr := gen.RandomTransform(rng)
			fams[i].Puzzles = append(fams[i].Puzzles, store.Puzzle{Puzzle: tr.Apply(p).String(), Solution: tr.Apply(s).String(), Transform: tr.String()})
		}
	}
	return fams
}

// MustPacks reads the bank's packs.
func MustPacks(tb testing.TB, path string) []store.Pack {
	tb.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	packs, err := db.Packs(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return packs
}

// MustPackRows reads the puzzles of one pack.
func MustPackRows(tb testing.TB, path string, id int64) []store.Row {
	tb.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rows, err := db.PackRows(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return rows
}

// MustCSV reads a CSV file.
func MustCSV(tb testing.TB, path string) [][]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// TestCSVFormulaInjection gives families sources that a spreadsheet would
// run as formulas and checks that list -format csv and export -format csv
// write them with a leading single quote, while JSON keeps them as stored.
func TestCSVFormulaInjection(t *testing.T) {
	fams := MustReadFixture(t)
	evil := []string{`=HYPERLINK("http://example.com/x","click")`, "+1+2", "-2+3", "@SUM(A1:A9)", "\t=1"}
	const tabbed = 4 // the store refuses a tab in a name now; a bank written before may hold one
	for i := range fams {
		fams[i].Source = evil[i%len(evil)]
		if i%len(evil) == tabbed {
			fams[i].Source = "tabbed"
		}
	}
	db := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, db, fams)
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE families SET source = ? WHERE source = 'tabbed'", evil[tabbed]); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	check := func(t *testing.T, recs [][]string) {
		t.Helper()
		if len(recs) < 2 {
			t.Fatalf("got %d records, want puzzles", len(recs))
		}
		col := slices.Index(recs[0], "source")
		for i, rec := range recs[1:] {
			src := rec[col]
			if !strings.HasPrefix(src, "'") || !slices.Contains(evil, src[1:]) {
				t.Errorf("row %d: source %q, want a quote before one of the stored sources", i+1, src)
			}
		}
	}
	t.Run("List", func(t *testing.T) {
		out := mustRun(t, "list", "-db", db, "-limit", "0", "-format", "csv")
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		check(t, recs)
	})
	t.Run("Export", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "pack.csv")
		mustRun(t, "export", "-db", db, "-count", "20", "-seed", "1", "-format", "csv", "-out", out, "-no-record")
		check(t, MustCSV(t, out))
	})
	t.Run("JSONUnchanged", func(t *testing.T) {
		out := mustRun(t, "list", "-db", db, "-limit", "5", "-format", "json")
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var obj struct {
				Source string `json:"source"`
			}
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(evil, obj.Source) {
				t.Errorf("json source %q, want a stored source unchanged", obj.Source)
			}
		}
	})
}

// TestExportPackNames checks that a name given with -pack is never used
// twice, while the automatic name of a repeated export (the same file
// within one second) gets a number instead of failing the export.
func TestExportPackNames(t *testing.T) {
	db := MustBank(t)
	out := filepath.Join(t.TempDir(), "daily.sdm")
	for range 3 {
		mustRun(t, "export", "-db", db, "-count", "2", "-format", "sdm", "-out", out, "-force")
	}
	names := map[string]bool{}
	for _, p := range MustPacks(t, db) {
		if names[p.Name] {
			t.Errorf("two packs are named %q", p.Name)
		}
		names[p.Name] = true
	}
	if len(names) != 3 {
		t.Errorf("got %d pack names, want 3: %v", len(names), names)
	}

	mustRun(t, "export", "-db", db, "-count", "2", "-format", "sdm", "-out", out, "-force", "-pack", "acme-1")
	r := run(t, "export", "-db", db, "-count", "2", "-format", "sdm", "-out", out, "-force", "-pack", "acme-1")
	if r.code != 2 || !strings.Contains(r.err.Error(), `-pack "acme-1": the bank already has a pack of that name`) {
		t.Errorf("a second -pack acme-1: code %d, error %v; want 2 and the name taken", r.code, r.err)
	}
}
