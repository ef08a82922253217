package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"sudokubank/export"

	"sudokubank/grid"
	"sudokubank/solve"
)

// FuzzParseGrade reads any text as grade reads its input and show its
// argument (solve.ParseLine and solve.Parse for 9x9), of any size:
// a puzzle it takes is a valid grid of one of grid.Shapes that reads
// back as itself from its String, and a refusal is an error, never a
// panic.
func FuzzParseGrade(f *testing.F) {
	for _, s := range grid.Shapes {
		f.Add(grid.New(s).String(), false)
	}
	for _, s := range []string{"6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4",
		"1234", "12.4.3..........", "1.1.............", "", "x", "G" + "..............."} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, arg bool) {
		parse9 := solve.ParseLine
		if arg {
			parse9 = solve.Parse
		}
		g, err := parseGrade(text, parse9)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("parseGrade(%q): empty error", text)
			}
			return
		}
		if !g.Shape.Valid() || g.Check() != nil {
			t.Fatalf("parseGrade(%q) = a %v grid, Check %v", text, g.Shape, g.Check())
		}
		back, err := parseGrade(g.String(), parse9)
		if err != nil || !back.Equal(g) {
			t.Fatalf("parseGrade(%q): String %q reads back as %v, %v", text, g.String(), back, err)
		}
	})
}

// FuzzOutputFlags gives export's output flags any text: a refusal is a
// usage error that starts with the flag it is about, and what is taken
// is a format of export.Formats whose options export.Options.Validate
// takes, a date a zip file can record and a URL export.CheckURL takes.
func FuzzOutputFlags(f *testing.F) {
	f.Add("pdf", "2026-11-28", "https://example.com", "Title", "12mm", "a5")
	f.Add("sdk", "2026-02-30", "ftp://x", "", "", "")
	f.Add("csv", "1979-12-31", "", "a\x00b", "", "")
	f.Add("json", "20261128", "https://", "", "auto", "legal")
	f.Fuzz(func(t *testing.T, format, date, url, title, gutter, page string) {
		fs := flag.NewFlagSet("bankquery export", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		of := addOutputFlags(fs)
		args := []string{"-format", format, "-out", "pack.out", "-date", date, "-url", url, "-title", title}
		if gutter != "" || page != "" {
			args = append(args, "-gutter", gutter, "-page", page)
		}
		if err := fs.Parse(args); err != nil {
			t.Fatalf("flags %q: %v", args, err)
		}
		o, err := of.output("bank.db", 3)
		if err != nil {
			var ue usageError
			flagNamed := false
			fs.VisitAll(func(fl *flag.Flag) {
				flagNamed = flagNamed || strings.HasPrefix(err.Error(), "-"+fl.Name+" ") || strings.HasPrefix(err.Error(), "-"+fl.Name+":")
			})
			if !errors.As(err, &ue) || !flagNamed {
				t.Fatalf("flags %q: %v is not a usage error that starts with a flag", args, err)
			}
			return
		}
		if err := o.opt.Validate(o.format); err != nil {
			t.Fatalf("flags %q taken, but Validate says %v", args, err)
		}
		if err := export.CheckDate(o.opt.Date); err != nil || (date != "" && o.opt.Date.Format(time.DateOnly) != date) {
			t.Fatalf("flags %q: date %v, %v", args, o.opt.Date, err)
		}
		if err := export.CheckURL(o.opt.URL); url != "" && err != nil {
			t.Fatalf("flags %q: URL %q taken: %v", args, o.opt.URL, err)
		}
	})
}
