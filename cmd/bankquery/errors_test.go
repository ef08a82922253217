package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad input exits 2 with a message that names the flag and the value; a
// failure of the command itself exits 1; neither prints a stack trace,
// records a pack or leaves a file.
func TestBadInput(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.sdm")
	existing := filepath.Join(dir, "existing.sdm")
	if err := os.WriteFile(existing, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, strings.Repeat("x", 246)+".sdm") // its temporary name is too long
	exp := func(extra ...string) []string {
		return append([]string{"export", "-db", db, "-format", "sdm", "-out", out, "-count", "3"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // in the error message
	}{
		{"NoCommand", nil, 2, "no command"},
		{"UnknownCommand", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"UnknownFlag", []string{"list", "-db", db, "-colour"}, 2, "-colour"},
		{"RatingNotANumber", []string{"list", "-db", db, "-rating", "7-x"}, 2, `-rating "7-x": "x" is not a rating`},
		{"RatingTwoDecimals", []string{"list", "-db", db, "-rating", "7.25-"}, 2, `-rating "7.25-"`},
		{"RatingBackwards", []string{"list", "-db", db, "-rating", "9-7"}, 2, "lower bound 9 is above upper bound 7"},
		{"RatingTwoDashes", []string{"list", "-db", db, "-rating", "1-2-3"}, 2, `-rating "1-2-3": not a range`},
		{"RatingJustDash", []string{"list", "-db", db, "-rating", "-"}, 2, "at least one bound"},
		{"GivensTooMany", []string{"list", "-db", db, "-givens", "20-90"}, 2, `-givens "20-90": 90 is out of range 1-81`},
		{"GivensFraction", []string{"list", "-db", db, "-givens", "22.5"}, 2, `-givens "22.5"`},
		{"GivensOfLargerGrid", []string{"list", "-db", db, "-givens", "100-120"}, 2, `with size N, up to N*N`},
		{"GivensOverSize", []string{"list", "-db", db, "-size", "6", "-givens", "20-40"}, 2, `-givens "20-40": 40 is out of range 1-36`},
		{"SizeUnknown", []string{"list", "-db", db, "-size", "7"}, 2, `-size "7": want one of 4, 6, 8, 9, 12, 16, 25`},
		{"SizeNotANumber", []string{"list", "-db", db, "-size", "big"}, 2, `-size "big": want one of`},
		{"SizeNotSquare", []string{"export", "-db", db, "-size", "16x9", "-format", "csv", "-out", out, "-count", "3"}, 2, `-size "16x9"`},
		{"SizeListSDM", []string{"list", "-db", db, "-size", "16", "-format", "sdm"}, 2, "-format sdm: holds 9x9 puzzles only; list -size 16 as lines, json or csv"},
		{"SizeExportSDK", exp("-size", "4", "-format", "sdk"), 2, "-format sdk: holds 9x9 puzzles only"},
		{"SizeExportOpenSudoku", exp("-size", "12", "-format", "opensudoku"), 2, "-format opensudoku: holds 9x9 puzzles only"},
		{"SizePDFTooManyAPage", []string{"export", "-db", db, "-size", "16", "-format", "pdf", "-page", "a5", "-per-page", "6", "-out", filepath.Join(dir, "x.pdf"), "-count", "3"}, 2, `-per-page "6": 6 a page of 16x16 grids on a5 set the values at 5.3 pt, want 7 pt or more: take -per-page 1 or 2, or -page letter or a4`},
		{"SizePDFLargePrint", []string{"export", "-db", db, "-size", "16", "-format", "pdf", "-page", "a5", "-large-print", "-out", filepath.Join(dir, "x.pdf"), "-count", "3"}, 2, `-large-print: 16x16 grids on a5 in large print set the digits at 13.0 pt even 1 a page, want 16 pt or more: take -page letter, a4, 8x10 or 7x10, or leave out -large-print`},
		{"SizePDFPage", []string{"export", "-db", db, "-size", "25", "-format", "pdf", "-page", "5.5x8.5", "-out", filepath.Join(dir, "x.pdf"), "-count", "3"}, 2, `-page "5.5x8.5": 25x25 grids on 5.5x8.5 set the values at 6.8 pt even 1 a page`},
		{"SymbolsUnknown", []string{"export", "-db", db, "-format", "pdf", "-symbols", "roman", "-out", filepath.Join(dir, "x.pdf"), "-count", "3"}, 2, `-symbols "roman": want letters, numbers or a-p`},
		{"SymbolsNotPDF", exp("-format", "csv", "-symbols", "numbers"), 2, "-symbols: only with -format pdf"},
		{"ScoreNaN", []string{"list", "-db", db, "-score", "NaN-"}, 2, `-score "NaN-"`},
		{"ScoreHigh", []string{"list", "-db", db, "-score", "3-7"}, 2, `-score "3-7"`},
		{"UnknownLevel", []string{"list", "-db", db, "-level", "easy,nightmare"}, 2, `-level "easy,nightmare": unknown level "nightmare"`},
		{"LevelSix", []string{"list", "-db", db, "-level", "6"}, 2, `unknown level "6"`},
		{"EmptyLevel", []string{"list", "-db", db, "-level", "easy,"}, 2, "empty level"},
		{"UnknownTechnique", []string{"list", "-db", db, "-technique", "x-wingz"}, 2, `-technique "x-wingz": unknown technique`},
		{"UnknownSymmetry", []string{"list", "-db", db, "-symmetry", "rot45"}, 2, `-symmetry "rot45"`},
		{"ListBadFormat", []string{"list", "-db", db, "-format", "pdf"}, 2, `-format "pdf"`},
		{"ListRandomNoLimit", []string{"list", "-db", db, "-random", "-limit", "0"}, 2, "-limit"},
		{"ListSeedWithoutRandom", []string{"list", "-db", db, "-seed", "3"}, 2, "-seed"},
		{"ListStrayArgument", []string{"list", "-db", db, "evil"}, 2, `unexpected argument "evil"`},
		{"ShowNoArgument", []string{"show", "-db", db}, 2, "one puzzle"},
		{"ShowNotAPuzzle", []string{"show", "-db", db, "12x"}, 2, `"12x" is neither`},
		{"ShowCellsOfNoSize", []string{"show", "-db", db, "123456" + strings.Repeat(".", 34)}, 2, "found 40, want 81 (or 16, 36, 64, 144, 256 or 625 for the other sizes)"},
		{"GradeCellsOfNoSize", []string{"grade", "-db", db, "123456" + strings.Repeat(".", 34)}, 2, "found 40, want 81 (or 16, 36, 64, 144, 256 or 625 for the other sizes)"},
		{"ShowZeroID", []string{"show", "-db", db, "0"}, 2, "IDs start at 1"},
		{"ShowIDOutOfRange", []string{"show", "-db", db, "99999999999999999999999"}, 2, "puzzle ID 99999999999999999999999 is out of range: IDs go up to 9223372036854775807"},
		{"ShowLongUnknownID", []string{"show", "-db", db, "12345678901234567"}, 1, "no puzzle with ID 12345678901234567"},
		{"ShowUnknownID", []string{"show", "-db", db, "99999"}, 1, "no puzzle with ID 99999"},
		{"ShowUnknownPuzzle", []string{"show", "-db", db, strings.Repeat(".", 80) + "1"}, 1, "is not in the bank"},
		{"ExportNoCount", []string{"export", "-db", db, "-format", "sdm", "-out", out}, 2, "-count"},
		{"ExportNegativeCount", exp("-count", "-4"), 2, `-count "-4"`},
		{"ExportNoFormat", []string{"export", "-db", db, "-count", "3", "-out", out}, 2, "-format: required"},
		{"ExportBadFormat", exp("-format", "docx"), 2, `-format "docx"`},
		{"ExportNoOut", []string{"export", "-db", db, "-count", "3", "-format", "sdm"}, 2, "-out: required"},
		{"ExportBadOrder", exp("-order", "hardest"), 2, `-order "hardest"`},
		{"ExportBadPage", exp("-format", "pdf", "-page", "legal"), 2, `-page "legal": want one of letter, 8.5x11`},
		{"ExportBadPerPage", exp("-format", "pdf", "-per-page", "3"), 2, `-per-page "3"`},
		{"ExportPageNotPDF", exp("-page", "a4"), 2, "-page: only with -format pdf"},
		{"ExportNoRecordWithClient", exp("-no-record", "-client", "acme"), 2, "-no-record"},
		{"ExportEmptyClient", exp("-client", ""), 2, `-client ""`},
		{"ExportEmptyPack", exp("-pack", ""), 2, `-pack "": want a non-empty name`},
		{"ExportPackSpaces", exp("-pack", " acme"), 2, `-pack " acme": want a non-empty name without surrounding spaces`},
		{"ExportPackDash", exp("-pack", "-acme"), 2, `-pack "-acme": want a non-empty name without surrounding spaces, not starting with '-'`},
		{"ExportBadFilter", exp("-givens", "30-20"), 2, `-givens "30-20"`},
		{"ExportNotEnough", exp("-level", "evil", "-count", "31"), 1, "30 of 31 puzzles match"},
		{"ExportNoneMatch", exp("-level", "1", "-givens", "22"), 1, "0 of 3 puzzles match"},
		{"ExportNotEnoughUnrecorded", exp("-level", "evil", "-count", "31", "-no-record"), 1, "30 of 31 puzzles match"},
		{"ExportExists", []string{"export", "-db", db, "-format", "sdm", "-out", existing, "-count", "3"}, 2, "file exists (use -force"},
		{"ExportNoDirectory", []string{"export", "-db", db, "-format", "sdm", "-out", filepath.Join(dir, "no", "x.sdm"), "-count", "3"}, 2, "does not exist"},
		{"ExportTempFails", []string{"export", "-db", db, "-format", "sdm", "-out", long, "-count", "3"}, 1, "file name too long"},
		{"StatsBankIsNotABank", []string{"stats", "-db", existing}, 1, "not a sudoku bank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit status %d, want %d (error %v)", r.code, tt.code, r.err)
			}
			if r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", r.err, tt.want)
			}
		})
	}
	// None of them recorded a pack or left a file behind.
	if packs := MustPacks(t, db); len(packs) != 0 {
		t.Errorf("failed commands recorded %d packs", len(packs))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "existing.sdm" {
		t.Errorf("the output directory holds %v, want only existing.sdm", entries)
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me\n" {
		t.Errorf("existing.sdm was changed to %q", b)
	}
}

func TestExportForce(t *testing.T) {
	db := MustBank(t)
	out := filepath.Join(t.TempDir(), "x.sdm")
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "export", "-db", db, "-format", "sdm", "-out", out, "-count", "3", "-force")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(b), "\n"); got != 3 || strings.Contains(string(b), "old") {
		t.Errorf("-force left %q, want 3 puzzles", b)
	}
}

// The real binary: exit statuses, messages on stderr with the program's
// name, and never a panic or a stack trace.
func TestBinaryExitStatus(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string // on stderr
	}{
		{"Stats", []string{"stats", "-db", db}, 0, ""},
		{"Help", []string{"export", "-h"}, 0, ""},
		{"BadRange", []string{"list", "-db", db, "-rating", "7-x"}, 2, `bankquery: -rating "7-x": `},
		{"UnknownLevel", []string{"export", "-db", db, "-level", "hard", "-count", "1", "-format", "sdm", "-out", "a.sdm"}, 2, `bankquery: -level "hard": unknown level`},
		{"NotEnough", []string{"export", "-db", db, "-level", "evil", "-count", "100", "-format", "pdf", "-out", "b.pdf"}, 1, "30 of 100 puzzles match"},
		// The bank is named once: not "open bank nope.db: stat nope.db: ...".
		{"MissingBank", []string{"list", "-db", "nope.db"}, 1, "bankquery: open bank nope.db: no such file or directory\n"},
		{"MissingBankShow", []string{"show", "-db", "nope.db", "1"}, 1, "bankquery: open bank nope.db: no such file or directory\n"},
		{"Export", []string{"export", "-db", db, "-count", "5", "-format", "pdf", "-out", "c.pdf"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := exe(t, dir, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tt.want)
			}
			for _, bad := range []string{"panic", "goroutine ", ".go:"} {
				if strings.Contains(r.stderr, bad) {
					t.Errorf("stderr holds %q:\n%s", bad, r.stderr)
				}
			}
		})
	}
	for _, name := range []string{"a.sdm", "b.pdf"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a failed export left %s", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "c.pdf")); err != nil {
		t.Errorf("the export wrote no file: %v", err)
	}
}
