package ranges_test

import (
	"strings"
	"testing"

	"sudokubank/internal/ranges"
)

func TestInts(t *testing.T) {
	tests := []struct {
		in             string
		wantLo, wantHi int
		wantErr        bool
	}{
		{"22-26", 22, 26, false},
		{"22-", 22, 0, false},
		{"-26", 0, 26, false},
		{"24", 24, 24, false},
		{" 22 - 26 ", 22, 26, false},
		{"26-22", 0, 0, true},
		{"0-3", 0, 0, true},
		{"1-82", 0, 0, true},
		{"-", 0, 0, true},
		{"", 0, 0, true},
		{"a-b", 0, 0, true},
		{"1-2-3", 0, 0, true},
		{"--3", 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			lo, hi, err := ranges.Ints(tt.in, 1, 81)
			if (err != nil) != tt.wantErr || lo != tt.wantLo || hi != tt.wantHi {
				t.Errorf("Ints(%q) = %d, %d, %v; want %d, %d, error %v", tt.in, lo, hi, err, tt.wantLo, tt.wantHi, tt.wantErr)
			}
		})
	}
}

// Ints never panics, and what it accepts is a sound range: bounds in
// range, lower not above upper, the "no bound" of 0 only at an open end.
func FuzzInts(f *testing.F) {
	for _, s := range []string{"22-26", "22-", "-26", "24", "26-22", "-", "", "1-2-3", " 3 - 4 ", "99999999999999999999-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := ranges.Ints(s, 1, 81)
		if err != nil {
			return
		}
		if lo < 0 || lo > 81 || hi < 0 || hi > 81 || (hi != 0 && lo > hi) || (lo == 0 && hi == 0) {
			t.Errorf("Ints(%q) = %d, %d", s, lo, hi)
		}
		a, b, _ := strings.Cut(strings.TrimSpace(s), "-")
		if (strings.TrimSpace(a) == "") != (lo == 0) || (strings.Contains(s, "-") && (strings.TrimSpace(b) == "") != (hi == 0)) {
			t.Errorf("Ints(%q) = %d, %d: an open end must be 0 and only an open end", s, lo, hi)
		}
	})
}

func TestTenths(t *testing.T) {
	tests := []struct {
		in             string
		wantLo, wantHi int
		wantErr        bool
	}{
		{"7.0-9.9", 70, 99, false},
		{"7-", 70, 0, false},
		{"-2.3", 0, 23, false},
		{"1.5", 15, 15, false},
		{".5-1", 5, 10, false},
		{"0-", 0, 0, false},
		{"-0", 0, 0, true},
		{"7.25-8", 0, 0, true},
		{"7.-8", 0, 0, true},
		{"9.9-7.0", 0, 0, true},
		{"20.1-", 0, 0, true},
		{"1e1-", 0, 0, true},
		{"+7-", 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			lo, hi, err := ranges.Tenths(tt.in)
			if (err != nil) != tt.wantErr || lo != tt.wantLo || hi != tt.wantHi {
				t.Errorf("ranges.Tenths(%q) = %d, %d, %v; want %d, %d, error %v", tt.in, lo, hi, err, tt.wantLo, tt.wantHi, tt.wantErr)
			}
		})
	}
}

// Tenths never panics, and what it accepts is a sound range: bounds in
// range, lower not above upper.
func FuzzTenths(f *testing.F) {
	for _, s := range []string{"7.0-9.9", "7-", "-2.3", "1.5", ".5-1", "7.25-8", "9.9-7.0", "20.1-", "0-", "-0", "1e1-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := ranges.Tenths(s)
		if err != nil {
			return
		}
		if lo < 0 || lo > ranges.MaxTenths || hi < 0 || hi > ranges.MaxTenths || (hi != 0 && lo > hi) {
			t.Errorf("ranges.Tenths(%q) = %d, %d", s, lo, hi)
		}
	})
}
