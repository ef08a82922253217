package grade_test

import (
	"maps"
	"strings"
	"testing"

	"sudokubank/grade"
)

// Slugs lists each step's technique in order, and UseCounts counts the
// same steps by technique.
func TestSlugsAndUseCounts(t *testing.T) {
	g, err := grade.Rate(MustParse(t, "...6..2....8...7...3..4....8..7...9...2..31.7....1........5....9...2.43.3..4.651."))
	if err != nil {
		t.Fatal(err)
	}
	slugs := strings.Fields(grade.Slugs(g.Path))
	if got, want := len(slugs), len(g.Path); got != want || got == 0 {
		t.Fatalf("Slugs has %d steps, want %d (and some)", got, want)
	}
	counts := map[string]int{}
	for i, s := range slugs {
		if want := g.Path[i].Technique.Slug(); s != want {
			t.Errorf("step %d: slug %q, want %q", i, s, want)
		}
		counts[s]++
	}
	if got := g.UseCounts(); !maps.Equal(got, counts) {
		t.Errorf("UseCounts = %v, want the path's counts %v", got, counts)
	}
}

func TestParseTechniqueSlug(t *testing.T) {
	tests := []struct {
		in      string
		want    grade.Technique
		wantErr bool
	}{
		{"x-wing", grade.XWing, false},
		{" X-Wing ", grade.XWing, false},
		{"brute-force", grade.BruteForce, false},
		{"x-wingz", grade.NoTechnique, true},
		{"", grade.NoTechnique, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := grade.ParseTechniqueSlug(tt.in)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("ParseTechniqueSlug(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "x-wing, hidden-pair") {
				t.Errorf("error %q does not list the slugs", err)
			}
		})
	}
}
