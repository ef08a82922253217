package pipeline

import (
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
)

// TestMemoProfiles checks that memoProfiles returns what the function it
// wraps returns, calling it once for each level and symmetry, and that a
// Builder without Profiles digs with the memo (each dig asked for a
// formatted profile name before).
func TestMemoProfiles(t *testing.T) {
	calls := 0
	f := memoProfiles(func(l grade.Level, sym gen.Symmetry) gen.Profile {
		calls++
		return ProfileFor(l, sym)
	})
	for round := 0; round < 3; round++ {
		for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
			for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Diagonal} {
				if got, want := f(l, sym), ProfileFor(l, sym); got != want {
					t.Errorf("level %v %v: got %+v, want %+v", l, sym, got, want)
				}
			}
		}
	}
	if calls != 15 {
		t.Errorf("%d calls of the wrapped function, want 15", calls)
	}
	b := NewBuilder(BuildOptions{Levels: []grade.Level{grade.Evil}})
	if n := testing.AllocsPerRun(100, func() { b.o.Profiles(grade.Evil, gen.Rot90) }); n != 0 {
		t.Errorf("a Builder's profile costs %v allocations, want 0", n)
	}
}
