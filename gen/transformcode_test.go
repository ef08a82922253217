package gen_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/gen"
)

func TestTransformCodeRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tr := transformGen.Draw(rt, "t")
		c := tr.Code()
		if c < 0 || c >= gen.TransformCodes {
			rt.Fatalf("%v: code %d out of range", tr, c)
		}
		back, err := gen.TransformOfCode(c)
		if err != nil {
			rt.Fatalf("TransformOfCode(%d): %v", c, err)
		}
		if back != tr {
			rt.Fatalf("TransformOfCode(%d) = %v, want %v", c, back, tr)
		}
	})
}

// TestTransformOfCodeIsOnto draws codes, not transforms, so that a code
// that decodes to something no transform encodes to would be caught.
func TestTransformOfCodeIsOnto(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := rapid.Int64Range(0, gen.TransformCodes-1).Draw(rt, "c")
		tr, err := gen.TransformOfCode(c)
		if err != nil {
			rt.Fatalf("TransformOfCode(%d): %v", c, err)
		}
		// The text form validates the permutations and the bands.
		if _, err := gen.ParseTransform(tr.String()); err != nil {
			rt.Fatalf("TransformOfCode(%d) = %v, not a transform: %v", c, tr, err)
		}
		if got := tr.Code(); got != c {
			rt.Fatalf("TransformOfCode(%d).Code() = %d", c, got)
		}
	})
}

// TestTransformCodeKnown pins the numbering: the store keeps transforms as
// their codes, so a change to it would misread every bank.
func TestTransformCodeKnown(t *testing.T) {
	for _, tc := range []struct {
		text string
		code int64
	}{
		{"123456789/123456789/123456789", 0},
		{"123456789/123456789/123456798", 1},
		{"123456789/123456789/213456789", 40320},
		{"123456789/123456798/123456789", 362880},
		{"123456789/456123789/123456789", 2 * 216 * 362880},
		{"132456789/123456789/123456789", 36 * 1296 * 362880},
		{"T123456789/987654321/123456789", 609968983680},
		{"T987654321/987654321/987654321", 1218998108159},
	} {
		tr, err := gen.ParseTransform(tc.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Code(); got != tc.code {
			t.Errorf("%s: code %d, want %d", tc.text, got, tc.code)
		}
		back, err := gen.TransformOfCode(tc.code)
		if err != nil || back.String() != tc.text {
			t.Errorf("TransformOfCode(%d) = %v, %v; want %s", tc.code, back, err, tc.text)
		}
	}
	if got := gen.Turn90().Code(); got != 609968983680 {
		t.Errorf("Turn90 code %d", got)
	}
	if gen.TransformCodes != 1218998108160 {
		t.Errorf("TransformCodes = %d", gen.TransformCodes)
	}
}

func TestTransformOfCodeRange(t *testing.T) {
	for _, c := range []int64{-1, gen.TransformCodes, gen.TransformCodes + 1, -1 << 63, 1<<63 - 1} {
		if _, err := gen.TransformOfCode(c); !errors.Is(err, gen.ErrTransformCode) {
			t.Errorf("TransformOfCode(%d): error %v, want ErrTransformCode", c, err)
		}
	}
}

func FuzzTransformOfCode(f *testing.F) {
	for _, c := range []int64{0, 1, 609968983680, gen.TransformCodes - 1, gen.TransformCodes, -1} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, c int64) {
		tr, err := gen.TransformOfCode(c)
		if (err == nil) != (c >= 0 && c < gen.TransformCodes) {
			t.Fatalf("TransformOfCode(%d): error %v", c, err)
		}
		if err != nil {
			return
		}
		if got := tr.Code(); got != c {
			t.Fatalf("TransformOfCode(%d).Code() = %d", c, got)
		}
	})
}

func BenchmarkTransformCode(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ts [64]gen.Transform
	for i := range ts {
		ts[i] = gen.RandomTransform(rng)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := gen.TransformOfCode(ts[i%len(ts)].Code()); err != nil {
			b.Fatal(err)
		}
	}
}
