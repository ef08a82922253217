package readme_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubank/internal/readme"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// The repository's Markdown files whose commands and links are checked.
var markdownFiles = []string{"README.md", "docs/performance.md", "docs/schema.md", "docs/formats.md"}

// MustCommands reads the commands of a Markdown file of the repository.
func MustCommands(tb testing.TB, name string) []readme.Command {
	tb.Helper()
	md, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		tb.Fatal(err)
	}
	cmds, err := readme.All(md, "bankgen", "bankquery", "go")
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return cmds
}

// testFlags are the flags go test and the test binary take themselves.
var testFlags = map[string]bool{
	"bench": true, "benchmem": true, "benchtime": true, "count": true, "cover": true,
	"coverprofile": true, "cpu": true, "cpuprofile": true, "failfast": true, "fuzz": true,
	"fuzztime": true, "fuzzminimizetime": true, "json": true, "list": true, "memprofile": true,
	"mutexprofile": true, "blockprofile": true, "parallel": true, "race": true, "run": true,
	"short": true, "skip": true, "timeout": true, "trace": true, "v": true, "vet": true,
	"c": true, "o": true, "tags": true, "shuffle": true, "outputdir": true, "args": true,
}

// flagDef finds the type and name of a flag a test file defines.
var flagDef = regexp.MustCompile(`flag\.(Bool|String|Int|Int64|Uint|Uint64|Float64|Duration)(?:Var)?\((?:&\w+,\s*)?"([^"]+)"`)

// boolTestFlags are go test's own flags that take no value.
var boolTestFlags = map[string]bool{
	"v": true, "short": true, "benchmem": true, "failfast": true, "race": true,
	"cover": true, "json": true, "c": true,
}

// TestGoTestCommands checks that each "go test" command of the Markdown
// files names packages that exist, and flags that go test takes or that
// a test file of one of those packages defines: a renamed test flag
// leaves no stale command behind.
func TestGoTestCommands(t *testing.T) {
	checked := 0
	for _, name := range markdownFiles {
		for _, c := range MustCommands(t, name) {
			if len(c.Args) < 2 || c.Args[0] != "go" || c.Args[1] != "test" {
				continue
			}
			checked++
			defined := map[string]string{} // flag name: its type
			all := false                   // ./...: any package's flag may be meant
			for _, p := range c.Args[2:] {
				if !strings.HasPrefix(p, "./") {
					continue
				}
				all = all || strings.HasSuffix(p, "...")
				dir := filepath.Join(root, strings.TrimSuffix(p, "..."))
				if _, err := os.Stat(dir); err != nil {
					t.Errorf("%s:%d: %s: no package %s", name, c.Line, c, p)
					continue
				}
				files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
				for _, f := range files {
					b, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range flagDef.FindAllSubmatch(b, -1) {
						defined[string(m[2])] = string(m[1])
					}
				}
			}
			for i := 2; i < len(c.Args); i++ {
				a := c.Args[i]
				if !strings.HasPrefix(a, "-") {
					continue
				}
				f, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
				f = strings.TrimPrefix(f, "test.")
				typ, ok := defined[f]
				switch {
				case testFlags[f]:
				case ok:
				case all:
				default:
					t.Errorf("%s:%d: %s: no test there defines -%s", name, c.Line, c, f)
				}
				if !hasValue && !boolTestFlags[f] && typ != "Bool" && !(all && !testFlags[f]) {
					i++ // the flag's value
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no go test command found: the README's test command is missing")
	}
}

// mdLink finds the relative links of a Markdown file.
var mdLink = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)

// TestLinks checks that every relative link of the Markdown files leads
// to a file of the repository, and that the README links each docs file.
func TestLinks(t *testing.T) {
	links := map[string]bool{}
	for _, name := range markdownFiles {
		md, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(md), -1) {
			target := filepath.Join(root, filepath.Dir(name), m[1])
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link to %s: %v", name, m[1], err)
			}
			if name == "README.md" {
				links[filepath.Clean(m[1])] = true
			}
		}
	}
	for _, name := range markdownFiles[1:] {
		if !links[name] {
			t.Errorf("README.md does not link %s", name)
		}
	}
}
