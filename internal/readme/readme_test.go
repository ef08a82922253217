package readme_test

import (
	"slices"
	"strings"
	"testing"

	"sudokubank/internal/readme"
)

func TestCommands(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []readme.Command
	}{
		{
			name: "CommentsAndBlocks",
			md: "text\n```sh\nbankgen -count 5   # five\n\n# a comment\n```\n" +
				"```go\nbankgen -not-shell\n```\n```\nbankgen -no-info\n```\n",
			want: []readme.Command{{Line: 3, Args: []string{"bankgen", "-count", "5"}}},
		},
		{
			name: "Continuation",
			md:   "```sh\nbankquery export -title \"A day\" \\\n    -out daily.pdf\nbankquery packs\n```\n",
			want: []readme.Command{
				{Line: 2, Args: []string{"bankquery", "export", "-title", "A day", "-out", "daily.pdf"}},
				{Line: 4, Args: []string{"bankquery", "packs"}},
			},
		},
		{
			name: "OperatorsAndRedirections",
			md:   "~~~bash\ncd /srv && zcat a.gz | bankgen import -source 'x y' - >log 2>&1; echo done >> b\n~~~\n",
			want: []readme.Command{
				{Line: 2, Args: []string{"cd", "/srv"}},
				{Line: 2, Args: []string{"zcat", "a.gz"}},
				{Line: 2, Args: []string{"bankgen", "import", "-source", "x y", "-"}},
				{Line: 2, Args: []string{"echo", "done"}},
			},
		},
		{
			name: "EnvAndCrontab",
			md:   "```sh\nGOGC=400 go test ./store -rows 5\n```\n```crontab\n0 2 * * * cd /srv/bank && bankgen -quiet\n```\n",
			want: []readme.Command{
				{Line: 2, Env: []string{"GOGC=400"}, Args: []string{"go", "test", "./store", "-rows", "5"}},
				{Line: 5, Args: []string{"cd", "/srv/bank"}},
				{Line: 5, Args: []string{"bankgen", "-quiet"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readme.Commands([]byte(tt.md))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tt.want, func(a, b readme.Command) bool {
				return a.Line == b.Line && slices.Equal(a.Env, b.Env) && slices.Equal(a.Args, b.Args)
			}) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestCommandsErrors(t *testing.T) {
	for _, md := range []string{
		"```sh\nbankgen -title 'open\n```\n",
		"```sh\nbankgen -title \"open\n```\n",
		"```sh\nbankgen \\\n```\n",
	} {
		if got, err := readme.Commands([]byte(md)); err == nil {
			t.Errorf("Commands(%q) = %q, want an error", md, got)
		}
	}
}

func TestTool(t *testing.T) {
	tests := []struct {
		args []string
		name string
		want []string
		ok   bool
	}{
		{[]string{"bankgen", "-count", "5"}, "bankgen", []string{"-count", "5"}, true},
		{[]string{"/usr/local/bin/bankgen"}, "bankgen", []string{}, true},
		{[]string{"go", "run", "./cmd/bankquery", "stats"}, "bankquery", []string{"stats"}, true},
		{[]string{"go", "run", "./cmd/bankquery", "stats"}, "bankgen", nil, false},
		{[]string{"go", "test", "./..."}, "bankgen", nil, false},
		{[]string{"timeout", "-s", "INT", "6h", "bankgen", "-quiet"}, "bankgen", []string{"-quiet"}, true},
		{[]string{"nohup", "nice", "-n", "10", "bankgen"}, "bankgen", []string{}, true},
		{[]string{"timeout", "6h"}, "bankgen", nil, false},
	}
	for _, tt := range tests {
		got, ok := readme.Command{Args: tt.args}.Tool(tt.name)
		if ok != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("Tool(%q) of %q = %q, %v; want %q, %v", tt.name, tt.args, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzCommands checks that any Markdown reads without a panic, that
// every command has words and lies on a line of the file, and that a
// command printed by String reads back as the same words.
func FuzzCommands(f *testing.F) {
	f.Add("```sh\nbankgen -count 5 # x\n```\n")
	f.Add("```sh\na 'b c' \"d\\\"e\" f\\ g >h 2>&1 | i && j; k\n```\n")
	f.Add("```crontab\n0 2 * * * bankgen \\\n -quiet\n```")
	f.Fuzz(func(t *testing.T, md string) {
		cmds, err := readme.Commands([]byte(md))
		if err != nil {
			return
		}
		lines := strings.Count(md, "\n") + 1
		for _, c := range cmds {
			if len(c.Args)+len(c.Env) == 0 || c.Line < 1 || c.Line > lines {
				t.Fatalf("command %q on line %d of %d", c, c.Line, lines)
			}
			if len(c.Env) > 0 || slices.Contains(c.Args, "") {
				continue
			}
			again, err := readme.Commands([]byte("```sh\n" + c.String() + "\n```\n"))
			if err != nil {
				t.Fatalf("%q does not read back: %v", c, err)
			}
			if len(again) != 1 || !slices.Equal(again[0].Args, c.Args) {
				t.Fatalf("%q reads back as %q", c.Args, again)
			}
		}
	})
}

func TestSpans(t *testing.T) {
	md := "Run `bankgen -count 5` or `puzzles.db`; `go test ./grade -accuracy`; `bankgen`, `bankgen import`.\n" +
		"```sh\n`bankgen -in-block`\n```\n| `bankquery stats -db a.db` | x |\n"
	got, err := readme.Spans([]byte(md), "bankgen", "bankquery", "go")
	if err != nil {
		t.Fatal(err)
	}
	want := []readme.Command{
		{Line: 1, Args: []string{"bankgen", "-count", "5"}},
		{Line: 1, Args: []string{"go", "test", "./grade", "-accuracy"}},
		{Line: 5, Args: []string{"bankquery", "stats", "-db", "a.db"}},
	}
	if !slices.EqualFunc(got, want, func(a, b readme.Command) bool {
		return a.Line == b.Line && slices.Equal(a.Args, b.Args)
	}) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := readme.Spans([]byte("`bankgen -title 'x`"), "bankgen"); err == nil {
		t.Error("an unclosed quote in a span: no error")
	}
}

// FuzzSpans checks that any Markdown reads without a panic.
func FuzzSpans(f *testing.F) {
	f.Add("`bankgen -count 5` and `go test ./x`\n```\n`bankgen`\n```\n")
	f.Fuzz(func(t *testing.T, md string) {
		cmds, err := readme.Spans([]byte(md), "bankgen", "go")
		if err != nil {
			return
		}
		lines := strings.Count(md, "\n") + 1
		for _, c := range cmds {
			if len(c.Args) == 0 || c.Line < 1 || c.Line > lines {
				t.Fatalf("span command %q on line %d of %d", c, c.Line, lines)
			}
		}
	})
}
