package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bin is the bankgen binary the end-to-end tests run, built by TestMain.
var bin string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "bankgen-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "bankgen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build bankgen: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// result is how a run of the binary ended.
type result struct {
	code           int
	stdout, stderr string
}

// bankgen runs the binary in dir with args and waits for it.
func bankgen(t *testing.T, dir string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return ended(t, args, &out, &errb, cmd.Run())
}

// ended is the result of a run of the binary with args, from its output
// and what waiting for it returned; any failure to run it fails the test.
func ended(t *testing.T, args []string, out, errb *bytes.Buffer, err error) result {
	t.Helper()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("bankgen %q: %v", args, err)
	}
	return r
}

func TestBadFlagsExit2(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"Level", []string{"-level", "hard"}, `invalid value "hard" for flag -level`},
		{"Quota", []string{"-quota", "easy:5"}, `invalid value "easy:5" for flag -quota`},
		{"Symmetry", []string{"-symmetry", "spiral"}, `invalid value "spiral" for flag -symmetry`},
		{"Workers", []string{"-workers", "-2"}, "-workers"},
		{"VariantsOverLimit", []string{"-count", "0", "-variants", "1001"}, "invalid value 1001 for flag -variants: must be 1000 or fewer"},
		{"VariantsMillion", []string{"-count", "0", "-variants", "1000000"}, "must be 1000 or fewer"},
		{"CountHuge", []string{"-count", "1000000000000"}, "invalid value 1000000000000 for flag -count: must be 100000000 or fewer"},
		{"QuotaHuge", []string{"-quota", "evil=5000000000"}, "the quota must be 100000000 or fewer"},
		{"GivensBelow17", []string{"-givens", "16-30"}, `invalid value "16-30" for flag -givens`},
		{"GivensReversed", []string{"-givens", "38-30"}, `invalid value "38-30" for flag -givens`},
		{"TechniqueUnknown", []string{"-technique", "x-wingz"}, `invalid value "x-wingz" for flag -technique: "x-wingz": unknown technique`},
		{"TechniqueTwice", []string{"-technique", "x-wing,X-Wing"}, `for flag -technique: technique x-wing given twice`},
		{"TechniqueAnyUnknown", []string{"-technique-any", "x-wing,,aic"}, `for flag -technique-any: "": unknown technique`},
		{"RatingReversed", []string{"-rating", "9.0-7.0"}, `invalid value "9.0-7.0" for flag -rating: lower bound`},
		{"RatingNotANumber", []string{"-rating", "hard"}, `invalid value "hard" for flag -rating`},
		{"RatingTooFine", []string{"-rating", "7.25-"}, `invalid value "7.25-" for flag -rating`},
		{"QuotaMixed", []string{"-quota", "easy=5,x-wing=5"}, "levels cannot be mixed with techniques or rating bands"},
		{"QuotaKeysAndRating", []string{"-quota", "x-wing=5", "-rating", "9.0-"}, "-rating and -technique cannot be used with a -quota of techniques or rating bands"},
		{"ImportNoFile", []string{"import"}, "one FILE"},
		{"ImportBadFlag", []string{"import", "-nope", "x"}, "-nope"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bankgen(t, dir, tt.args...)
			if r.code != 2 {
				t.Errorf("exit code %d, want 2; stderr:\n%s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q does not say %q", r.stderr, tt.want)
			}
			if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
				t.Errorf("stderr has a stack trace:\n%s", r.stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"import", "-h"}, {"merge", "-h"}} {
		r := bankgen(t, t.TempDir(), args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "-db file") {
			t.Errorf("bankgen %q: exit %d, stdout:\n%s", args, r.code, r.stdout)
		}
	}
}
