package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
)

// FuzzFlagValues checks the flag.Values of bankgen that FuzzParseGivens,
// FuzzParseLevels, FuzzParseQuota and FuzzParseSymmetry leave out: any
// text is refused with the flag package's message, which names the flag
// and quotes the text, or taken, and then what String shows (as -h prints
// it) reads back as the same value.
func FuzzFlagValues(f *testing.F) {
	for _, s := range []string{"x-wing", "X-Wing, full-house", "x-wing,x-wing", "", ",", "7.0-9.5", "-9", "9.95-", "16", "16x16", "9x16",
		"normal", "full", "FULL", "drop", "refuse", "100"} {
		for v := range flagValueCount {
			f.Add(uint8(v), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		name, v := flagValue(which)
		fs := flag.NewFlagSet("bankgen", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Var(v, name, "")
		if err := fs.Parse([]string{"-" + name, s}); err != nil {
			if !strings.Contains(err.Error(), "-"+name) || !strings.Contains(err.Error(), strconvQuote(s)) {
				t.Fatalf("-%s %q: error %q does not name the flag and the text", name, s, err)
			}
			return
		}
		shown := v.String()
		_, again := flagValue(which)
		if err := again.Set(shown); err != nil {
			t.Fatalf("-%s %q shows as %q, which Set refuses: %v", name, s, shown, err)
		}
		if got := again.String(); got != shown {
			t.Fatalf("-%s %q shows as %q, which reads back as %q", name, s, shown, got)
		}
	})
}

// flagValueCount is how many values flagValue chooses from.
const flagValueCount = 5

// flagValue returns a fresh value of one of bankgen's flags and its name.
func flagValue(which uint8) (string, flag.Value) {
	switch which % flagValueCount {
	case 0:
		return "technique", new(techniquesFlag)
	case 1:
		return "rating", new(ratingFlag)
	case 2:
		return "size", new(sizeFlag)
	case 3:
		return "sync", new(syncFlag)
	default:
		return "packs", new(packsFlag)
	}
}

// strconvQuote is %q, as the flag package quotes a refused value.
func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }
