package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"sudokubank/internal/readme"
)

// TestReadmeCommands parses every bankgen command of the README and the
// docs with the command's own flags, as bankgen would before it runs:
// each subcommand, flag and value the documents show must exist and be
// valid. The commands are not run; most of them build thousands of
// families.
func TestReadmeCommands(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append([]string{"../../README.md"}, files...)
	checked := 0
	for _, name := range files {
		md, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cmds, err := readme.All(md, "bankgen", "bankquery", "go")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range cmds {
			args, ok := c.Tool("bankgen")
			if !ok {
				continue
			}
			checked++
			if len(args) > 0 && args[0] == "import" {
				_, err = parseImport(args[1:], io.Discard)
			} else {
				_, err = parseGenerate(args, io.Discard)
			}
			if err != nil && !errors.Is(err, flag.ErrHelp) {
				t.Errorf("%s:%d: %s: %v", filepath.Base(name), c.Line, c, err)
			}
		}
	}
	if checked == 0 {
		t.Error("the README shows no bankgen command")
	}
}
