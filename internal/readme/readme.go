// Package readme reads the commands out of a Markdown file's shell code
// blocks, so that tests can check that every command a README shows still
// runs as written. It understands the little shell a README uses (quotes,
// comments, backslash continuations, &&, ;, |, redirections and leading
// VAR=value words); it is not a shell and runs nothing.
package readme

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Command is one simple command of a code block.
type Command struct {
	Line int      // line of the Markdown file the command starts on, from 1
	Env  []string // the VAR=value words before the program
	Args []string // the program and its arguments, quotes removed
}

// String returns the command as a shell line, for messages.
func (c Command) String() string {
	var b strings.Builder
	for i, a := range append(append([]string{}, c.Env...), c.Args...) {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a == "" || strings.ContainsFunc(a, needsQuote) {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		b.WriteString(a)
	}
	return b.String()
}

// needsQuote reports whether r makes a word need quotes in String.
func needsQuote(r rune) bool {
	return r < ' ' || r == 0x7f || strings.ContainsRune(" \"'$`\\|&;<>()*?#~=", r)
}

// Tool returns the arguments after the program when c runs the command
// name: "name ...", "path/to/name ..." or "go run ./cmd/name ...", also
// behind nohup, nice or timeout.
func (c Command) Tool(name string) ([]string, bool) {
	args := unwrap(c.Args)
	switch {
	case len(args) == 0:
		return nil, false
	case path.Base(args[0]) == name:
		return args[1:], true
	case len(args) >= 3 && args[0] == "go" && args[1] == "run" &&
		strings.TrimPrefix(args[2], "./") == "cmd/"+name:
		return args[3:], true
	}
	return nil, false
}

// unwrap drops the commands that run another one (nohup, nice, timeout)
// and their own flags and arguments from the front of args.
func unwrap(args []string) []string {
	for len(args) > 0 {
		w := args[0]
		if w != "nohup" && w != "nice" && w != "timeout" {
			return args
		}
		args = args[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			if f := args[0]; (f == "-n" || f == "-s" || f == "-k") && len(args) > 1 {
				args = args[1:]
			}
			args = args[1:]
		}
		if w == "timeout" && len(args) > 0 {
			args = args[1:] // the duration
		}
	}
	return args
}

// shellInfo are the info strings of the code blocks Commands reads;
// crontab lines start with the five fields of the schedule.
var shellInfo = map[string]bool{"sh": true, "shell": true, "bash": true, "console": true, "crontab": true}

// Commands returns the commands of md's fenced code blocks whose info
// string is sh, shell, bash, console or crontab, in the order they
// appear. A block it cannot read (an unclosed quote, a line that ends in
// a continuation at the block's end) is an error naming its line.
func Commands(md []byte) ([]Command, error) {
	var out []Command
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(nil, len(md)+1)
	no := 0
	var fence, info string // the open block's fence and info string
	var pending strings.Builder
	start := 0
	for sc.Scan() {
		no++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if fence == "" {
			if f := fenceOf(trimmed); f != "" {
				fence = f
				info, _, _ = strings.Cut(strings.TrimSpace(trimmed[len(f):]), " ")
			}
			continue
		}
		if strings.HasPrefix(trimmed, fence) && strings.TrimLeft(trimmed, fence[:1]) == "" {
			if pending.Len() > 0 {
				return nil, fmt.Errorf("line %d: the block ends in a continued line", start)
			}
			fence, info = "", ""
			continue
		}
		if !shellInfo[info] {
			continue
		}
		if pending.Len() == 0 {
			start = no
		}
		if s, ok := strings.CutSuffix(line, `\`); ok && !strings.HasSuffix(s, `\`) {
			pending.WriteString(s)
			pending.WriteByte(' ')
			continue
		}
		pending.WriteString(line)
		text := pending.String()
		pending.Reset()
		if info == "crontab" {
			text = schedule(text)
		}
		cmds, err := split(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", start, err)
		}
		for _, words := range cmds {
			c := Command{Line: start}
			for len(words) > 0 && isAssignment(words[0]) {
				c.Env = append(c.Env, words[0])
				words = words[1:]
			}
			c.Args = words
			if len(c.Args) > 0 || len(c.Env) > 0 {
				out = append(out, c)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read markdown: %w", err)
	}
	if fence != "" && pending.Len() > 0 {
		return nil, fmt.Errorf("line %d: the file ends inside a continued line", start)
	}
	return out, nil
}

// Spans returns the inline code spans of md, outside code blocks, that
// run one of programs ("`bankgen -count 5`", "`go test ./solve`"), as
// commands: the commands a README shows in its text and tables. A span
// of a program alone or with one word ("`bankgen import`") is a mention
// and is left out, unless that word is a flag; a span
// of one of programs that does not read as a command is an error.
func Spans(md []byte, programs ...string) ([]Command, error) {
	var out []Command
	fence := ""
	for i, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimSpace(line)
		if fence == "" {
			if f := fenceOf(trimmed); f != "" {
				fence = f
				continue
			}
		} else {
			if strings.HasPrefix(trimmed, fence) && strings.TrimLeft(trimmed, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		for _, m := range span.FindAllStringSubmatch(line, -1) {
			words := strings.Fields(m[1])
			if len(words) == 0 || !slices.Contains(programs, words[0]) || !commandLike(words) {
				continue
			}
			cmds, err := split(m[1])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			for _, words := range cmds {
				if len(words) > 0 {
					out = append(out, Command{Line: i + 1, Args: words})
				}
			}
		}
	}
	return out, nil
}

// All returns the commands of md's shell code blocks and those of its
// inline code spans that run one of programs, in the order of their lines.
func All(md []byte, programs ...string) ([]Command, error) {
	blocks, err := Commands(md)
	if err != nil {
		return nil, err
	}
	spans, err := Spans(md, programs...)
	if err != nil {
		return nil, err
	}
	all := append(blocks, spans...)
	slices.SortStableFunc(all, func(a, b Command) int { return a.Line - b.Line })
	return all, nil
}

// ToolCommand is a command of tool that a document shows.
type ToolCommand struct {
	File string // the document's base name
	Command
	ToolArgs []string // the arguments after the tool's name (Command.Tool)
}

// ToolCommands returns the commands of tool that the README.md and the
// docs/*.md of the module at root show, the README's first, each
// document's in the order of their lines.
func ToolCommands(root, tool string) ([]ToolCommand, error) {
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var out []ToolCommand
	for _, name := range files {
		md, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		cmds, err := All(md, "bankgen", "bankquery", "bankserve", "bankload", "go")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(name), err)
		}
		for _, c := range cmds {
			if args, ok := c.Tool(tool); ok {
				out = append(out, ToolCommand{File: filepath.Base(name), Command: c, ToolArgs: args})
			}
		}
	}
	return out, nil
}

// commandLike reports whether the words of a span are a command rather
// than a mention of a program or subcommand: three words or more, or a flag.
func commandLike(words []string) bool {
	return len(words) >= 3 || slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "-") })
}

// span finds an inline code span of single backticks.
var span = regexp.MustCompile("`([^`]+)`")

// fenceOf returns the fence that opens a code block on line, or "".
func fenceOf(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// schedule drops the five schedule fields of a crontab line; a comment
// or a blank line is left as it is.
func schedule(line string) string {
	rest := strings.TrimSpace(line)
	if rest == "" || strings.HasPrefix(rest, "#") {
		return line
	}
	for range 5 {
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return ""
		}
		rest = strings.TrimLeft(rest[i:], " \t")
	}
	return rest
}

// isAssignment reports whether word is a VAR=value prefix of a command.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// split cuts a shell line into simple commands at ;, &, &&, | and ||,
// and each into words with quotes removed; a '#' that starts a word
// starts a comment, and redirections (>f, 2>&1, < f) are dropped.
func split(line string) ([][]string, error) {
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	redirect := false // the next word is a redirection's target
	endWord := func() {
		if !inWord {
			return
		}
		w := word.String()
		word.Reset()
		inWord = false
		if redirect {
			redirect = false
			return
		}
		words = append(words, w)
	}
	endCmd := func() {
		endWord()
		cmds = append(cmds, words)
		words = nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			endWord()
		case c == '#' && !inWord:
			endCmd()
			return cmds, nil
		case c == '\\' && i+1 < len(line):
			i++
			word.WriteByte(line[i])
			inWord = true
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", line)
			}
			word.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
			}
			if j >= len(line) {
				return nil, fmt.Errorf("unclosed \" in %q", line)
			}
			s := line[i+1 : j]
			for _, esc := range []string{`\"`, `\\`, `\$`, "\\`"} {
				s = strings.ReplaceAll(s, esc, esc[1:])
			}
			word.WriteString(s)
			i = j
			inWord = true
		case c == ';' || c == '&' || c == '|':
			endCmd()
			if i+1 < len(line) && line[i+1] == c {
				i++
			}
		case c == '>' || c == '<':
			// A redirection: drop the operator (with a file descriptor
			// number before it) and its target.
			if inWord && strings.Trim(word.String(), "0123456789") == "" {
				word.Reset()
				inWord = false
			} else {
				endWord()
			}
			for i+1 < len(line) && (line[i+1] == '>' || line[i+1] == '&') {
				i++
			}
			if line[i] == '&' {
				// >&2: the target is the digits that follow.
				for i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
					i++
				}
				continue
			}
			redirect = true
			for i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
				i++
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endCmd()
	var out [][]string
	for _, c := range cmds {
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out, nil
}
