package main

import (
	"io"
	"strings"
	"testing"

	"sudokubank/internal/readme"
)

// Every bankload command that the README and the docs show parses.
func TestReadmeCommands(t *testing.T) {
	cmds, err := readme.ToolCommands("../..", "bankload")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if _, err := parseArgs(c.ToolArgs, io.Discard); err != nil {
			t.Errorf("%s:%d: %s: %v", c.File, c.Line, c.Command, err)
		}
	}
}

// The usage text's examples parse.
func TestUsageExamples(t *testing.T) {
	cmds, err := readme.All([]byte("```sh\n"+usage[strings.Index(usage, "Examples:")+len("Examples:"):]+"```\n"), "bankload")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cmds {
		args, ok := c.Tool("bankload")
		if !ok {
			continue
		}
		n++
		if _, err := parseArgs(args, io.Discard); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
	if n == 0 {
		t.Error("the usage shows no example")
	}
}
