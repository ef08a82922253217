package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The deploy recipes hold bankgen command lines that no test runs (the
// GNU parallel one .ci/run runs for real): these tests read them and
// parse their bankgen arguments with bankgen's own flags, so that the
// recipes cannot drift from the program.

// yamlCommands returns the command lists of the YAML file at path whose
// first word is bankgen, as simple text: a "command:" key followed by
// "- item" lines, or one flow list on the key's line.
func yamlCommands(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	var cur []string
	indent := -1
	flush := func() {
		if len(cur) > 0 && filepath.Base(cur[0]) == "bankgen" {
			out = append(out, cur[1:])
		}
		cur, indent = nil, -1
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if indent >= 0 {
			if strings.HasPrefix(trimmed, "- ") && len(line)-len(strings.TrimLeft(line, " ")) == indent {
				cur = append(cur, yamlScalar(t, strings.TrimPrefix(trimmed, "- ")))
				continue
			}
			flush()
		}
		if key, rest, ok := strings.Cut(trimmed, "command:"); ok && key == "" {
			if rest = strings.TrimSpace(rest); strings.HasPrefix(rest, "[") {
				for _, w := range strings.Split(strings.Trim(rest, "[]"), ",") {
					cur = append(cur, yamlScalar(t, strings.TrimSpace(w)))
				}
				flush()
				continue
			}
			// The items follow, indented past the key.
			if sc.Scan() {
				next := sc.Text()
				indent = len(next) - len(strings.TrimLeft(next, " "))
				cur = append(cur, yamlScalar(t, strings.TrimPrefix(strings.TrimSpace(next), "- ")))
			}
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// yamlScalar reads a plain or double-quoted YAML scalar.
func yamlScalar(t *testing.T, s string) string {
	t.Helper()
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("YAML scalar %s: %v", s, err)
		}
		return u
	}
	return s
}

// shellCommands returns the bankgen command lines of the shell script
// at path, continuation lines joined and words split as a shell would
// for these simple lines: quotes removed, variables left as written.
func shellCommands(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	var out [][]string
	for _, line := range strings.Split(text, "\n") {
		words := strings.Fields(strings.NewReplacer(`"`, "", `'`, "").Replace(line))
		if len(words) > 0 && words[0] == "exec" {
			words = words[1:]
		}
		// The command GNU parallel runs starts at the program's word.
		if len(words) > 0 && words[0] == "parallel" {
			if i := indexOf(words, "$BANKGEN"); i >= 0 {
				words = words[i:]
			}
		}
		if len(words) > 0 && (words[0] == "bankgen" || words[0] == "$BANKGEN") {
			out = append(out, words[1:])
		}
	}
	return out
}

// parseBankgen parses args as bankgen does, with the variables a
// scheduler fills in given values first.
func parseBankgen(t *testing.T, where string, args []string, env ...string) {
	t.Helper()
	r := strings.NewReplacer(env...)
	for i, a := range args {
		args[i] = r.Replace(a)
	}
	var err error
	if len(args) > 0 && args[0] == "merge" {
		_, err = parseMerge(args[1:], io.Discard)
	} else {
		_, err = parseGenerate(args, io.Discard)
	}
	if err != nil {
		t.Errorf("%s: bankgen %q: %v", where, args, err)
	}
}

// shardOf returns N of the -shard I/N in args.
func shardOf(t *testing.T, args []string) int {
	t.Helper()
	for i, a := range args {
		if a == "-shard" && i+1 < len(args) {
			_, n, _ := strings.Cut(args[i+1], "/")
			v, err := strconv.Atoi(n)
			if err != nil {
				t.Fatalf("-shard %s: %v", args[i+1], err)
			}
			return v
		}
	}
	t.Fatalf("no -shard in %q", args)
	return 0
}

func TestKubernetesRecipes(t *testing.T) {
	dir := filepath.Join("..", "..", "deploy", "kubernetes")
	shards := yamlCommands(t, filepath.Join(dir, "shards-job.yaml"))
	if len(shards) != 1 {
		t.Fatalf("shards-job.yaml: %d bankgen commands, want 1", len(shards))
	}
	n := shardOf(t, shards[0])
	parseBankgen(t, "shards-job.yaml", shards[0], "$(JOB_COMPLETION_INDEX)", "0")
	b, err := os.ReadFile(filepath.Join(dir, "shards-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"completionMode: Indexed", "completions: " + strconv.Itoa(n), "backoffLimitPerIndex:", "parallelism:"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("shards-job.yaml does not say %q", want)
		}
	}
	merges := yamlCommands(t, filepath.Join(dir, "merge-job.yaml"))
	if len(merges) != 1 {
		t.Fatalf("merge-job.yaml: %d bankgen commands, want 1", len(merges))
	}
	parseBankgen(t, "merge-job.yaml", merges[0])
	// Every shard the Job makes is merged.
	for i := range n {
		want := "/data/shard-" + strconv.Itoa(i) + ".db"
		if !strings.Contains(strings.Join(merges[0], " ")+" ", want+" ") {
			t.Errorf("merge-job.yaml does not merge %s", want)
		}
	}
}

func TestSlurmRecipes(t *testing.T) {
	dir := filepath.Join("..", "..", "deploy", "slurm")
	env := []string{"${SLURM_ARRAY_TASK_ID}", "0", "${SLURM_CPUS_PER_TASK}", "1", "$BANKS", "/banks"}
	shards := shellCommands(t, filepath.Join(dir, "shards.sbatch"))
	if len(shards) != 1 {
		t.Fatalf("shards.sbatch: %d bankgen commands, want 1", len(shards))
	}
	n := shardOf(t, shards[0])
	parseBankgen(t, "shards.sbatch", shards[0], env...)
	b, err := os.ReadFile(filepath.Join(dir, "shards.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "#SBATCH --array=0-" + strconv.Itoa(n-1) + "\n"; !strings.Contains(string(b), want) {
		t.Errorf("shards.sbatch does not say %q for -shard I/%d", want, n)
	}
	merges := shellCommands(t, filepath.Join(dir, "merge.sbatch"))
	if len(merges) != 1 {
		t.Fatalf("merge.sbatch: %d bankgen commands, want 1", len(merges))
	}
	if want := "shard-{0.." + strconv.Itoa(n-1) + "}.db"; !strings.Contains(strings.Join(merges[0], " "), want) {
		t.Errorf("merge.sbatch does not merge %s", want)
	}
	parseBankgen(t, "merge.sbatch", merges[0], env...)
	submit, err := os.ReadFile(filepath.Join(dir, "submit.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`--dependency=afterok:`).Match(submit) {
		t.Error("submit.sh does not make the merge wait for the array (--dependency=afterok)")
	}
}

func TestParallelRecipe(t *testing.T) {
	path := filepath.Join("..", "..", "deploy", "parallel", "build.sh")
	cmds := shellCommands(t, path)
	if len(cmds) != 2 {
		t.Fatalf("build.sh: %d bankgen commands, want the shards' and the merge", len(cmds))
	}
	env := []string{"{}/$SHARDS", "0/16", "$SEED", "1", "$COUNT", "100", "$VARIANTS", "0", "$BANKS", "/banks", "{}", "0", "${shards[@]}", "/banks/shard-0.db"}
	for _, c := range cmds {
		var args []string
		for _, a := range c {
			if a != "${workers[@]}" {
				args = append(args, a)
			}
		}
		// The words after the shards' command belong to parallel.
		if i := indexOf(args, ":::"); i >= 0 {
			args = args[:i]
		}
		parseBankgen(t, "build.sh", args, env...)
	}
}

func indexOf(s []string, w string) int {
	for i, v := range s {
		if v == w {
			return i
		}
	}
	return -1
}
