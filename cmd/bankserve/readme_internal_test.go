package main

import (
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"

	"sudokubank/internal/readme"
	"sudokubank/server"
)

// Every bankserve command that the README and the docs show parses: the
// flags exist and their values pass the checks made before the bank is
// opened.
func TestReadmeCommands(t *testing.T) {
	cmds, err := readme.ToolCommands("../..", "bankserve")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if _, err := parseArgs(c.ToolArgs, io.Discard); err != nil && !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s:%d: %s: %v", c.File, c.Line, c.Command, err)
		}
	}
	if len(cmds) == 0 {
		t.Error("the README shows no bankserve command")
	}
}

// The usage text's examples parse too.
func TestUsageExamples(t *testing.T) {
	cmds, err := readme.All([]byte("```sh\n"+usage[strings.Index(usage, "Examples:")+len("Examples:"):]+"```\n"), "bankserve")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		args, ok := c.Tool("bankserve")
		if !ok {
			continue
		}
		if _, err := parseArgs(args, io.Discard); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
	if len(cmds) == 0 {
		t.Error("the usage shows no example")
	}
}

// The usage names every filter the server takes, and the daily puzzle's
// parameters, so that an app developer reading -h finds them all.
func TestUsageParameters(t *testing.T) {
	filters := usage[strings.Index(usage, "FILTERS are"):]
	filters = strings.Join(strings.Fields(filters[:strings.Index(filters, ".")]), " ")
	for _, name := range []string{"level", "rating", "givens", "score", "technique", "hardest", "symmetry", "minimal", "source", "size"} {
		if !strings.Contains(filters+",", " "+name+",") {
			t.Errorf("the usage's FILTERS sentence %q lacks %s", filters, name)
		}
	}
	daily := usage[strings.Index(usage, "/api/v1/daily/"):strings.Index(usage, "/api/v1/export")]
	for _, p := range []string{"level=", "size=", "solution="} {
		if !strings.Contains(daily, p) {
			t.Errorf("the usage's daily endpoint lacks %s", p)
		}
	}
}

// The usage tells the window of IDs a page reads as the server has it.
func TestUsageScanWindow(t *testing.T) {
	if want := strconv.Itoa(server.DefaultScanWindow) + " IDs"; !strings.Contains(usage, want) {
		t.Errorf("the usage does not say a page reads %s", want)
	}
}

// The usage tells how many matches a cursor of another filter is
// counted up to, as the server has it: a window's worth.
func TestUsageRecount(t *testing.T) {
	if want := strconv.Itoa(server.DefaultScanWindow) + " matches"; !strings.Contains(usage, want) {
		t.Errorf("the usage lacks %q", want)
	}
}
