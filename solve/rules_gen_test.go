package solve_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRulesGenerated checks that rules.go is what rules_gen.go writes, so
// that a change to one copy of the band step cannot drift from the
// others.
func TestRulesGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), "rules.go")
	cmd := exec.Command("go", "run", "rules_gen.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run rules_gen.go: %v\n%s", err, msg)
	}
	got, err := os.ReadFile("rules.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("rules.go differs from what rules_gen.go writes: run go generate ./solve")
	}
}
