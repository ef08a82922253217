package store

import (
	"errors"
	"strings"
	"testing"
)

func TestPackGridRoundTrip(t *testing.T) {
	for _, s := range []string{
		strings.Repeat(".", 81),
		strings.Repeat("123456789", 9),
		"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
	} {
		b, err := packGrid(s)
		if err != nil {
			t.Fatalf("packGrid(%s): %v", s, err)
		}
		if len(b) != packedLen {
			t.Errorf("packGrid(%s) has %d bytes, want %d", s, len(b), packedLen)
		}
		if got := unpackGrid(string(b)); got != s {
			t.Errorf("unpackGrid(packGrid(%s)) = %s", s, got)
		}
	}
}

// The packed form sorts as the text does, so that rows inserted in the
// order of their packed strings are in the order of their text.
func TestPackGridOrder(t *testing.T) {
	a, b := strings.Repeat(".", 80)+"9", "1"+strings.Repeat(".", 80)
	pa, _ := packGrid(a)
	pb, _ := packGrid(b)
	if !(string(pa) < string(pb)) {
		t.Errorf("packed %s sorts after packed %s", a, b)
	}
}

func TestPackGridInvalid(t *testing.T) {
	for _, s := range []string{
		"",
		strings.Repeat(".", 80),
		strings.Repeat(".", 80) + "0",
		"x" + strings.Repeat(".", 80),
		strings.Repeat(".", 40) + "a" + strings.Repeat(".", 40),
	} {
		if _, err := packGrid(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("packGrid(%q) error = %v, want ErrInvalid", s, err)
		}
	}
}
