package main

import (
	"errors"
	"flag"
	"io"
	"testing"

	"sudokubank/internal/readme"
)

// TestReadmeCommands parses every bankgen command of the README and the
// docs with the command's own flags, as bankgen would before it runs:
// each subcommand, flag and value the documents show must exist and be
// valid. The commands are not run; most of them build thousands of
// families.
func TestReadmeCommands(t *testing.T) {
	cmds, err := readme.ToolCommands("../..", "bankgen")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		args := c.ToolArgs
		switch {
		case len(args) > 0 && args[0] == "import":
			_, err = parseImport(args[1:], io.Discard)
		case len(args) > 0 && args[0] == "merge":
			_, err = parseMerge(args[1:], io.Discard)
		default:
			_, err = parseGenerate(args, io.Discard)
		}
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s:%d: %s: %v", c.File, c.Line, c.Command, err)
		}
	}
	if len(cmds) == 0 {
		t.Error("the README shows no bankgen command")
	}
}
