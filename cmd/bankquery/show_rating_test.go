package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

// TestShowRatingMatchesPath imports a puzzle whose rating depends on its
// orientation (SE 1.2.1.3 rates it 9.5 as given, the grader its canonical
// form 9.6), then the canonical form, which joins the family as a
// variant. For each, show must print a rating that its hint path's
// hardest step bears, or say that the rating is the family's and give
// this puzzle's own.
func TestShowRatingMatchesPath(t *testing.T) {
	const given = "6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4"
	g, err := solve.Parse(given)
	if err != nil {
		t.Fatal(err)
	}
	canon, _ := gen.Canon(g)
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte(given+"\n"+canon.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(mustBankgen(t), "import", "-db", db, "-source", "q2", "-quiet", in).CombinedOutput()
	if err != nil {
		t.Fatalf("bankgen import: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "1 new famil") {
		t.Errorf("bankgen import said:\n%s\nwant one new family", out)
	}
	tests := []struct {
		name, puzzle string
		wantER       string // the family's, printed on the rating line
		wantOwn      string // this orientation's, when it differs
	}{
		{"AsImported", g.String(), "9.5", ""},
		{"CanonicalVariant", canon.String(), "9.5", "9.6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := mustRun(t, "show", "-db", db, tt.puzzle)
			er, own, hardest := showRatings(t, text)
			if er != tt.wantER || own != tt.wantOwn {
				t.Errorf("rating ER %s, own %q; want ER %s, own %q\n%s", er, own, tt.wantER, tt.wantOwn, text)
			}
			// The rating the path bears: the family's, or the one the
			// rating line gives as this puzzle's own.
			bears := er
			if own != "" {
				bears = own
			}
			if hardest != bears {
				t.Errorf("the path's hardest step rates %s, the rating line gives %s\n%s", hardest, bears, text)
			}
		})
	}
}

var (
	ratingLine = regexp.MustCompile(`(?m)^rating +ER (\d+\.\d)`)
	ownLine    = regexp.MustCompile(`(?m)^ +this puzzle as shown rates ER (\d+\.\d)`)
	stepLine   = regexp.MustCompile(`(?m)^ +\d+\. [a-z0-9-]+ (\d+\.\d)`)
)

// showRatings reads show's output: the ER of the rating line, this
// puzzle's own ER where the rating line gives it ("" otherwise), and the
// highest rating of a step of the hint path.
func showRatings(tb testing.TB, text string) (er, own, hardest string) {
	tb.Helper()
	m := ratingLine.FindStringSubmatch(text)
	if m == nil {
		tb.Fatalf("no rating line in:\n%s", text)
	}
	er = m[1]
	if m := ownLine.FindStringSubmatch(text); m != nil {
		own = m[1]
	}
	best := -1.0
	for _, m := range stepLine.FindAllStringSubmatch(text, -1) {
		if r, err := strconv.ParseFloat(m[1], 64); err == nil && r > best {
			best, hardest = r, m[1]
		}
	}
	if hardest == "" {
		tb.Fatalf("no hint path steps in:\n%s", text)
	}
	return er, own, hardest
}
