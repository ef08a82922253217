package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode"

	"sudokubank/gen"
	"sudokubank/grid"
)

// TestUsageSymmetriesBySize checks that bankgen -h says which symmetries
// a size's boxes rule out: each symmetry that some size refuses (rot90 on
// 6x6's 2x3 boxes) is named in the sentence that says they need square
// boxes, so that -size 6 -symmetry rot90 is no surprise.
func TestUsageSymmetriesBySize(t *testing.T) {
	var b bytes.Buffer
	if _, err := parseGenerate([]string{"-h"}, &b); err == nil {
		t.Fatal("-h: no flag.ErrHelp")
	}
	// Flag usages are wrapped onto several lines: read the text as one.
	text := strings.Join(strings.Fields(b.String()), " ")
	square := ""
	for s := range strings.SplitSeq(text, ". ") {
		if strings.Contains(s, "square boxes") {
			square = s
		}
	}
	for _, name := range []string{"none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"} {
		sym, err := gen.ParseSymmetry(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range grid.Shapes {
			if !sym.ValidFor(s) {
				if !slices.Contains(strings.FieldsFunc(square, notWord), name) {
					t.Errorf("bankgen -h does not say that %s needs square boxes (a %s grid refuses it); the sentence: %q", name, s, square)
				}
				break
			}
		}
	}
}

// notWord reports whether r ends a word of a usage text.
func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }

// TestUsageSynopsesAgree: the synopsis of each subcommand in bankgen -h
// is the one its own -h gives (bankgen import -h, bankgen merge -h), so
// that no flag is missing from either.
func TestUsageSynopsesAgree(t *testing.T) {
	top := synopsis(generateUsage)
	for name, usage := range map[string]string{"import": importUsage, "merge": mergeUsage} {
		if own := synopsis(usage); !strings.Contains(top+" ", own+" ") {
			t.Errorf("bankgen -h gives %s as\n  %s\nwhere bankgen %s -h gives\n  %s", name, subSynopsis(top, "bankgen "+name+" "), name, own)
		}
	}
}

// synopsis returns a usage text's synopsis, its lines up to the first
// blank one, without "Usage:" and with its spaces and line breaks as one
// space each.
func synopsis(usage string) string {
	s, _, _ := strings.Cut(usage, "\n\n")
	return strings.Join(strings.Fields(strings.TrimPrefix(s, "Usage:")), " ")
}

// subSynopsis returns the part of a joined synopsis that starts with
// prefix, up to the next "bankgen".
func subSynopsis(s, prefix string) string {
	_, rest, ok := strings.Cut(s, prefix)
	if !ok {
		return "(none)"
	}
	rest, _, _ = strings.Cut(rest, " bankgen ")
	return prefix + rest
}
