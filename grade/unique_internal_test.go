package grade

import "testing"

// TestLoopCore checks which cells loopCore keeps: the cells of a unique
// rectangle (each of whose rows, columns and boxes holds two of them),
// not a cell with a unit that holds none of the others, even where its
// other two units hold some.
func TestLoopCore(t *testing.T) {
	cells := func(cs ...int) cellSet {
		var s cellSet
		for _, c := range cs {
			s.add(c)
		}
		return s
	}
	rect := cells(0, 3, 9, 12) // r1c1, r1c4, r2c1, r2c4: boxes 1 and 2
	tests := []struct {
		name string
		w    cellSet
		want cellSet
	}{
		{"rectangle", rect, rect},
		{"rectangle and r3c1, alone in its row", cells(0, 3, 9, 12, 18), rect},
		{"rectangle and r1c7, alone in its column and box", cells(0, 3, 9, 12, 6), rect},
		{"rectangle over four boxes", cells(0, 30, 27, 3), cellSet{}},
		{"a row of cells", cells(0, 1, 2, 3), cellSet{}},
	}
	for _, tt := range tests {
		if got := loopCore(tt.w); got != tt.want {
			t.Errorf("%s: loopCore = %x, want %x", tt.name, got, tt.want)
		}
	}
}
