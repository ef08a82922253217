package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"sudokubank/store"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"Plain", "acme-2026-11", true},
		{"Empty", "", true}, // the caller's rule
		{"Spaces", "Evil Sudoku, vol. 2", true},
		{"Accents", "Café Rätsel", true},
		{"Persian", "می\u200cخواهم", true}, // the zero-width non-joiner
		{"Emoji", "👩\u200d💻 club", true},
		{"ReplacementChar", "a\uFFFDb", true},
		{"Longest", strings.Repeat("x", store.MaxNameLen), true},
		{"TooLong", strings.Repeat("x", store.MaxNameLen+1), false},
		{"TooLongMultibyte", strings.Repeat("é", store.MaxNameLen/2+1), false},
		{"Newline", "evil\n   1 forged  100", false},
		{"CarriageReturn", "a\rb", false},
		{"Tab", "a\tb", false},
		{"Escape", "\x1b[31mred", false},
		{"Delete", "a\x7f", false},
		{"C1Control", "a\u0085b", false},
		{"RightToLeftOverride", "acme\u202Egpj.exe", false},
		{"LeftToRightEmbedding", "\u202Aacme", false},
		{"FirstStrongIsolate", "a\u2068b\u2069", false},
		{"RightToLeftMark", "a\u200Fb", false},
		{"ArabicLetterMark", "a\u061Cb", false},
		{"ZeroWidthSpace", "ac\u200Bme", false},
		{"ByteOrderMark", "\uFEFFacme", false},
		{"LineSeparator", "a\u2028b", false},
		{"ParagraphSeparator", "a\u2029b", false},
		{"NotUTF8", "a\xffb", false},
		{"TruncatedUTF8", "caf\xc3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := store.CheckName(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("CheckName(%q) = %v, want ok %v", tt.in, err, tt.ok)
			}
			if err != nil && !errors.Is(err, store.ErrInvalid) {
				t.Errorf("CheckName(%q) = %v, want ErrInvalid", tt.in, err)
			}
		})
	}
}

// FuzzCheckName checks that an accepted name is UTF-8 within the bound
// and holds nothing that breaks a line or a terminal's rendering.
func FuzzCheckName(f *testing.F) {
	f.Add("acme")
	f.Add("a\nb")
	f.Add("a\u202Eb")
	f.Add("a\xffb")
	f.Fuzz(func(t *testing.T, s string) {
		if store.CheckName(s) != nil {
			return
		}
		if len(s) > store.MaxNameLen || !utf8.ValidString(s) {
			t.Fatalf("CheckName accepted %q", s)
		}
		if strings.ContainsAny(s, "\x00\t\n\v\f\r\x1b\u2028\u2029\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069") {
			t.Fatalf("CheckName accepted %q", s)
		}
	})
}

// The store itself refuses names that CheckName refuses, whatever the
// command in front of it checked.
func TestStoreRefusesBadNames(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 5, 1)
	for _, spec := range []store.PackSpec{
		{Name: "evil\n   9 forged"},
		{Name: "ok", Client: "acme\u202E"},
		{Name: strings.Repeat("p", store.MaxNameLen+1)},
	} {
		if _, _, err := db.CreatePack(ctx, spec, store.Filter{}, store.QueryOptions{}, 1); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("CreatePack(%q, client %q) = %v, want ErrInvalid", spec.Name, spec.Client, err)
		}
	}
	if packs, err := db.Packs(ctx); err != nil || len(packs) != 0 {
		t.Errorf("Packs = %v, %v; want none", packs, err)
	}
	f := fam(100, 2, 25, 1)
	f.Source = "top\n1465"
	if _, err := db.WriteBatch(ctx, []store.NewFamily{f}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("WriteBatch(source %q) = %v, want ErrInvalid", f.Source, err)
	}
}
