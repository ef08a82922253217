package main_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	bankquery "sudokubank/cmd/bankquery"
)

// sdmLines returns the puzzles of an sdm file or output, a line each.
func sdmLines(s string) []string {
	return strings.Fields(s)
}

// A recorded pack can be written again in any format: the same puzzles
// in the same order, where a second export for the client would pick
// others.
func TestPacksExport(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	csvOut := filepath.Join(dir, "acme.csv")
	mustRun(t, "export", "-db", db, "-level", "easy,medium", "-count", "9", "-seed", "5", "-order", "random",
		"-format", "csv", "-out", csvOut, "-pack", "acme-1", "-client", "acme")
	var want []string
	for _, rec := range MustCSV(t, csvOut)[1:] {
		want = append(want, rec[3])
	}
	if len(want) != 9 {
		t.Fatalf("the pack's CSV holds %d puzzles, want 9", len(want))
	}

	// by name, to a file
	sdm := filepath.Join(dir, "acme.sdm")
	msg := mustRun(t, "packs", "export", "acme-1", "-db", db, "-format", "sdm", "-out", sdm)
	if !strings.HasPrefix(msg, "wrote "+sdm+" (sdm, 9 puzzles); pack 1 \"acme-1\" for client acme") {
		t.Errorf("packs export said %q", msg)
	}
	b, err := os.ReadFile(sdm)
	if err != nil {
		t.Fatal(err)
	}
	got := sdmLines(strings.ReplaceAll(string(b), "0", "."))
	if !slices.Equal(got, want) {
		t.Errorf("packs export wrote\n%v\nwant the pack's puzzles in its order\n%v", got, want)
	}

	// by ID, to standard output, the report on stderr
	r := run(t, "packs", "export", "1", "-db", db, "-format", "sdm", "-out", "-")
	if r.err != nil || r.stdout != string(b) || !strings.Contains(r.stderr, "wrote standard output (sdm, 9 puzzles)") {
		t.Errorf("packs export -out -: %v, stdout %q, stderr %q; want the file's bytes", r.err, r.stdout, r.stderr)
	}

	// an existing file only with -force
	r = run(t, "packs", "export", "acme-1", "-db", db, "-format", "sdm", "-out", sdm)
	if r.code != 2 || !strings.Contains(r.err.Error(), "-force") {
		t.Errorf("packs export over a file: code %d, %v; want 2 and -force suggested", r.code, r.err)
	}
	mustRun(t, "packs", "export", "acme-1", "-db", db, "-format", "sdm", "-out", sdm, "-force", "-first-number", "3")

	// a PDF of the same pack, with export's PDF flags and credits
	pdf := filepath.Join(dir, "acme.pdf")
	msg = mustRun(t, "packs", "export", "acme-1", "-db", db, "-format", "pdf", "-out", pdf, "-page", "6x9", "-title", "Acme", "-no-answers")
	if !strings.Contains(msg, "(pdf, 9 puzzles,") {
		t.Errorf("packs export pdf said %q", msg)
	}
	if b, err := os.ReadFile(pdf); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("packs export pdf wrote %d bytes, %v; want a PDF", len(b), err)
	}
	// and a JSON with credits
	js := filepath.Join(dir, "acme.json")
	mustRun(t, "packs", "export", "acme-1", "-db", db, "-format", "json", "-out", js, "-author", "Ann Editor")
	if b, err := os.ReadFile(js); err != nil || bytes.Count(b, []byte(`"author":"Ann Editor"`)) != 9 {
		t.Errorf("packs export json: %v, want the author on each of 9 lines:\n%s", err, b)
	}

	// the bank recorded nothing more
	if packs := MustPacks(t, db); len(packs) != 1 {
		t.Errorf("%d packs after re-exports, want 1", len(packs))
	}

	// mistakes
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"packs", "export", "-db", db, "-format", "sdm", "-out", sdm}, 2, "no pack named"},
		{[]string{"packs", "export", "nope", "-db", db, "-format", "sdm", "-out", sdm}, 1, "no pack named nope"},
		{[]string{"packs", "export", "acme-1", "-db", db, "-out", sdm}, 2, "-format: required"},
		{[]string{"packs", "export", "acme-1", "-db", db, "-format", "pdf", "-out", "-"}, 2, "standard output takes the text formats"},
		{[]string{"packs", "export", "acme-1", "-db", db, "-format", "sdm", "-out", sdm, "-force", "-page", "a4"}, 2, "-page: only with -format pdf"},
		{[]string{"packs", "export", "acme-1", "-db", db, "-format", "sdk", "-out", "-"}, 2, "9 sdk puzzles make a zip"},
		{[]string{"packs", "export", "acme-1", "acme-2", "-db", db, "-format", "sdm", "-out", sdm}, 2, "one pack at a time"},
		{[]string{"packs", "export", "acme-1", "-db", db, "-format", "sdm", "-out", db, "-force"}, 2, "is the bank"},
	} {
		r := run(t, tt.args...)
		if r.code != tt.code || r.err == nil || !strings.Contains(r.err.Error(), tt.msg) {
			t.Errorf("%v: code %d, error %v; want %d and %q", tt.args[1:], r.code, r.err, tt.code, tt.msg)
		}
	}
}

func TestPacksShow(t *testing.T) {
	// One variant a family, and every match in the pack in ID order: the
	// golden file does not depend on how the sampler picks.
	fams := MustReadFixture(t)
	for i := range fams {
		fams[i].Puzzles = fams[i].Puzzles[:1]
	}
	db := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, db, fams)
	dir := t.TempDir()
	out := filepath.Join(dir, "a.sdm")
	n := len(sdmLines(mustRun(t, "list", "-db", db, "-level", "evil", "-rating", "8.0-", "-limit", "0")))
	mustRun(t, "export", "-db", db, "-level", "evil", "-rating", "8.0-", "-count", strconv.Itoa(n), "-order", "id", "-seed", "2",
		"-format", "sdm", "-out", out, "-pack", "evil-hard", "-client", "acme")
	text := mustRun(t, "packs", "show", "evil-hard", "-db", db)
	golden(t, "packsshow.golden", []byte(stable(text, dir)))

	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := sdmLines(string(b))
	r := run(t, "packs", "show", "-db", db, "-json", "1")
	if r.err != nil {
		t.Fatal(r.err)
	}
	var got []string
	for i, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var obj struct {
			Number int    `json:"number"`
			Puzzle string `json:"puzzle"`
		}
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if obj.Number != i+1 {
			t.Errorf("line %d is number %d", i+1, obj.Number)
		}
		got = append(got, strings.ReplaceAll(obj.Puzzle, ".", "0"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("packs show -json lists\n%v\nwant the file's puzzles\n%v", got, want)
	}
	if r := run(t, "packs", "show", "-db", db, "missing"); r.code != 1 {
		t.Errorf("packs show of no pack: code %d, %v; want 1", r.code, r.err)
	}
}

func TestPacksJSON(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	mustRun(t, "export", "-db", db, "-count", "3", "-seed", "1", "-format", "csv", "-out", filepath.Join(dir, "a.csv"), "-pack", "a", "-client", "acme")
	mustRun(t, "export", "-db", db, "-count", "4", "-seed", "1", "-format", "sdm", "-out", filepath.Join(dir, "b.sdm"), "-pack", "b")
	mustRun(t, "packs", "release", "a", "-db", db, "-force")
	out := mustRun(t, "packs", "-db", db, "-json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("packs -json printed %d lines, want 2:\n%s", len(lines), out)
	}
	type pack struct {
		ID       int64  `json:"id"`
		Name     string `json:"name"`
		Client   string `json:"client"`
		Format   string `json:"format"`
		Puzzles  int    `json:"puzzles"`
		Created  string `json:"created"`
		Released string `json:"released"`
		Filters  string `json:"filters"`
	}
	var got []pack
	for _, line := range lines {
		var p pack
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	if p := got[0]; p.ID != 1 || p.Name != "a" || p.Client != "acme" || p.Format != "csv" || p.Puzzles != 3 ||
		p.Created == "" || p.Released == "" || p.Filters != "-seed=1" {
		t.Errorf("first pack %+v", p)
	}
	if p := got[1]; p.ID != 2 || p.Name != "b" || p.Client != "" || p.Puzzles != 4 || p.Released != "" {
		t.Errorf("second pack %+v", p)
	}
	if r := run(t, "packs", "-db", db, "-json", "extra"); r.code != 2 {
		t.Errorf("packs -json extra: code %d, want 2", r.code)
	}
}

// Releasing a pack gives its families back, keeps its record, and is
// refused without -force.
func TestPacksRelease(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	mustRun(t, "export", "-db", db, "-level", "evil", "-count", "30", "-seed", "1", "-format", "sdm", "-out", filepath.Join(dir, "a.sdm"), "-pack", "acme-1", "-client", "acme")
	exp := func(client string) result {
		return run(t, "export", "-db", db, "-level", "evil", "-count", "1", "-seed", "2", "-format", "sdm", "-out", filepath.Join(dir, client+".sdm"), "-client", client, "-force")
	}
	if r := exp("globex"); r.code != 1 || !strings.Contains(r.err.Error(), "0 of 1 puzzles match") {
		t.Fatalf("export for another client while acme holds every evil family: code %d, %v", r.code, r.err)
	}

	r := run(t, "packs", "release", "acme-1", "-db", db)
	want := `packs release: would release pack 1 acme-1, freeing 30 families reserved to acme for other clients, and its 30 families for -fresh and for acme; run again with -force to release it`
	if r.code != 2 || r.err == nil || r.err.Error() != want {
		t.Errorf("release without -force: code %d, %v; want 2, %q", r.code, r.err, want)
	}
	if p := MustPacks(t, db)[0]; p.Released() {
		t.Fatal("release without -force released the pack")
	}

	msg := mustRun(t, "packs", "release", "-db", db, "acme-1", "-force")
	if want := "released pack 1 acme-1, freeing 30 families reserved to acme for other clients, and its 30 families for -fresh and for acme\n"; msg != want {
		t.Errorf("release said %q, want %q", msg, want)
	}
	if r := exp("globex"); r.err != nil {
		t.Errorf("export for another client after the release: %v", r.err)
	}
	if n := len(sdmLines(mustRun(t, "list", "-db", db, "-level", "evil", "-fresh", "-limit", "0"))); n == 0 {
		t.Error("-fresh finds no evil puzzle after the release")
	}
	if r := run(t, "packs", "release", "acme-1", "-db", db, "-force"); r.code != 1 || !strings.Contains(r.err.Error(), "released already") {
		t.Errorf("a second release: code %d, %v; want 1, released already", r.code, r.err)
	}
	packs := MustPacks(t, db)
	if len(packs) != 2 || !packs[0].Released() || len(MustPackRows(t, db, 1)) != 30 {
		t.Errorf("packs after the release %+v; want acme-1 kept, released, with its 30 puzzles", packs)
	}
	if out := mustRun(t, "check", "-db", db); !strings.Contains(out, "ok") {
		t.Errorf("check after a release:\n%s", out)
	}
	if out := mustRun(t, "stats", "-db", db); !strings.Contains(out, "2 packs (1 released) holding") {
		t.Errorf("stats after a release does not count the released pack apart:\n%s", out)
	}
	table := mustRun(t, "packs", "-db", db)
	if lines := strings.Split(table, "\n"); !strings.Contains(lines[0], "released") || strings.Count(lines[1], "-") < 1 || !packTime.MatchString(lines[1][strings.Index(lines[1], "evil")-30:]) {
		t.Errorf("packs does not show the release:\n%s", table)
	}
}

// listCSV reads list -format csv output, without its header.
func listCSV(tb testing.TB, out string) [][]string {
	tb.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) == 0 {
		tb.Fatalf("list csv: %d records, %v", len(recs), err)
	}
	return recs[1:]
}

// list -available-to keeps what an export for the client could pick:
// no family reserved to another client, none the client was given, and
// after a release, all of them again.
func TestListAvailableTo(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	all := listCSV(t, mustRun(t, "list", "-db", db, "-level", "medium", "-limit", "0", "-format", "csv"))
	mustRun(t, "export", "-db", db, "-level", "medium", "-count", "10", "-seed", "4", "-format", "sdm", "-out", filepath.Join(dir, "acme.sdm"), "-client", "acme", "-pack", "acme-1")
	// A pack without a client reserves nothing.
	mustRun(t, "export", "-db", db, "-level", "medium", "-count", "5", "-seed", "4", "-format", "sdm", "-out", filepath.Join(dir, "free.sdm"))
	acme := map[string]bool{}
	for _, r := range MustPackRows(t, db, 1) {
		acme[strconv.FormatInt(r.FamilyID, 10)] = true
	}
	var want []string
	for _, rec := range all {
		if !acme[rec[2]] {
			want = append(want, rec[1])
		}
	}
	ids := func(client string) []string {
		var out []string
		for _, rec := range listCSV(t, mustRun(t, "list", "-db", db, "-level", "medium", "-limit", "0", "-format", "csv", "-available-to", client)) {
			out = append(out, rec[1])
		}
		return out
	}
	for _, client := range []string{"globex", "acme"} {
		if got := ids(client); !slices.Equal(got, want) {
			t.Errorf("-available-to %s lists puzzles %v, want the %d not of acme's families %v", client, got, len(want), want)
		}
	}
	// export -client globex picks among exactly those families.
	fams := map[string]bool{}
	for _, rec := range all {
		if !acme[rec[2]] {
			fams[rec[2]] = true
		}
	}
	r := run(t, "export", "-db", db, "-level", "medium", "-count", strconv.Itoa(len(fams)+1), "-format", "sdm", "-out", filepath.Join(dir, "g.sdm"), "-client", "globex", "-seed", "1")
	if want := strconv.Itoa(len(fams)) + " of "; r.code != 1 || !strings.Contains(r.err.Error(), want) {
		t.Errorf("export -client globex of one more than the families listed: code %d, %v; want %q", r.code, r.err, want)
	}

	mustRun(t, "packs", "release", "acme-1", "-db", db, "-force")
	if got := ids("globex"); len(got) != len(all) {
		t.Errorf("-available-to globex after the release lists %d puzzles, want all %d", len(got), len(all))
	}
	for _, bad := range []string{" acme", ""} {
		if r := run(t, "list", "-db", db, "-available-to", bad); r.code != 2 {
			t.Errorf("-available-to %q: code %d, want 2", bad, r.code)
		}
	}
}

func TestPacksHelp(t *testing.T) {
	for _, sub := range []string{"show", "export", "release"} {
		r := run(t, "packs", sub, "-h")
		if r.code != 0 || !strings.Contains(r.stdout, "Usage: bankquery packs "+sub+" NAME") || !strings.Contains(r.stdout, "Examples:") {
			t.Errorf("packs %s -h: code %d, stdout:\n%s", sub, r.code, r.stdout)
		}
	}
	if r := run(t, "packs", "-h"); !strings.Contains(r.stdout, "packs release NAME") {
		t.Errorf("packs -h does not list the subcommands:\n%s", r.stdout)
	}
	if r := run(t, "export", "-h"); !strings.Contains(r.stdout, "-count N|LEVEL=N") {
		t.Errorf("export -h does not show per-level counts")
	}
	if r := run(t, "list", "-h"); !strings.Contains(r.stdout, "-available-to") {
		t.Errorf("list -h does not show -available-to")
	}
}

// TestPacksSynopsesAgree: each subcommand's line in packs -h is the
// synopsis its own -h gives, or for export the start of it (the output
// flags are summed up there as "[export's output flags]").
func TestPacksSynopsesAgree(t *testing.T) {
	top, _, _ := strings.Cut(run(t, "packs", "-h").stdout, "\n\n")
	for _, sub := range []string{"show", "export", "release"} {
		own, _, _ := strings.Cut(run(t, "packs", sub, "-h").stdout, "\n\n")
		own = strings.Join(strings.Fields(strings.TrimPrefix(own, "Usage:")), " ")
		line := "(none)"
		for l := range strings.Lines(top) {
			if f := strings.Fields(strings.TrimPrefix(l, "Usage:")); len(f) > 2 && f[2] == sub {
				line = strings.TrimSuffix(strings.Join(f, " "), " [export's output flags]")
			}
		}
		if own != line && !(sub == "export" && strings.HasPrefix(own, line+" ")) {
			t.Errorf("packs -h gives %s as\n  %s\nwhere packs %s -h gives\n  %s", sub, line, sub, own)
		}
	}
}

// The synopsis of packs export names every flag its flag list has, as
// export's does: the two share the output flags.
func TestPacksExportSynopsis(t *testing.T) {
	help := run(t, "packs", "export", "-h").stdout
	synopsis, _, _ := strings.Cut(help, "\n\n")
	_, flags, ok := strings.Cut(help, "\nFlags:\n")
	if !ok {
		t.Fatalf("packs export -h has no flag list:\n%s", help)
	}
	for line := range strings.Lines(flags) {
		name, isFlag := strings.CutPrefix(line, "  -")
		if !isFlag {
			continue
		}
		name, _, _ = strings.Cut(strings.TrimSpace(name), " ")
		if name == "version" {
			continue
		}
		if !strings.Contains(synopsis, "-"+name+" ") && !strings.Contains(synopsis, "-"+name+"]") {
			t.Errorf("packs export -h lists -%s but its synopsis does not:\n%s", name, synopsis)
		}
	}
}

// An export that falls short because families are reserved says so,
// with how many match; one the filters alone make short does not.
func TestExportShortOfReserved(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	exp := func(name string, extra ...string) result {
		return run(t, append([]string{"export", "-db", db, "-format", "sdm", "-out", filepath.Join(dir, name+".sdm")}, extra...)...)
	}
	if r := exp("acme", "-level", "evil", "-count", "25", "-client", "acme"); r.code != 0 {
		t.Fatalf("export for acme: code %d, %v", r.code, r.err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"OtherClient", []string{"-level", "evil", "-count", "10", "-client", "globex"},
			"5 of 10 puzzles match, one a family (10 or more families match, but the others are reserved to other clients or in packs for globex already)"},
		{"SameClient", []string{"-level", "evil", "-count", "10", "-client", "acme"},
			"5 of 10 puzzles match, one a family (10 or more families match, but the others are reserved to other clients or in packs for acme already)"},
		{"Unrecorded", []string{"-level", "evil", "-count", "40", "-no-record"},
			"5 of 40 puzzles match, one a family (30 families match, but the others are reserved to clients)"},
		{"PerLevel", []string{"-count", "evil=6"},
			"level evil: 5 of 6 puzzles match, one a family (6 or more families match, but the others are reserved to clients)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The shortfall is explained from the one read of the
			// selection, not by sampling it again without reservations.
			reads := 0
			defer bankquery.CountSelections(&reads)()
			r := exp(tt.name, tt.args...)
			if r.code != 1 || r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
				t.Errorf("code %d, error %v; want 1 and %q", r.code, r.err, tt.want)
			}
			if reads != 1 {
				t.Errorf("the export read its selection %d times, want once", reads)
			}
		})
	}
	// The filters alone: no word of reservations.
	r := exp("none", "-level", "1", "-givens", "22", "-count", "3")
	if r.code != 1 || r.err == nil || strings.Contains(r.err.Error(), "reserved") {
		t.Errorf("a shortfall of the filters: code %d, error %v; want 1 and no word of reservations", r.code, r.err)
	}
}

// TestPacksUnknownCommand checks that a word after packs that is not one
// of its commands is named as such, and that a command after a flag is
// told to come first: both were reported as "flags go before
// arguments", which sent the user the wrong way.
func TestPacksUnknownCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"packs", "bogus"}, `unknown packs command "bogus": want show, export or release`},
		{[]string{"packs", "list"}, `unknown packs command "list"`},
		{[]string{"packs", "-db", "b.db", "show", "acme"}, `"show" comes first, right after packs: bankquery packs show NAME [flags]`},
		{[]string{"packs", "-json", "release", "acme"}, `"release" comes first`},
	} {
		r := run(t, tt.args...)
		if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
			t.Errorf("bankquery %s: code %d, error %v; want 2 and %q", strings.Join(tt.args, " "), r.code, r.err, tt.want)
		}
	}
}

// TestPacksExportSizedNineOnly: a pack of 12x12 puzzles re-exported in a
// format that holds 9x9 only is refused as export refuses -size 12 there,
// a usage error (status 2) naming the pack and the formats that take it,
// with nothing written.
func TestPacksExportSizedNineOnly(t *testing.T) {
	db, _, _ := MustSizedBank(t, 12)
	dir := t.TempDir()
	mustRun(t, "export", "-db", db, "-size", "12", "-count", "1", "-format", "csv", "-out", filepath.Join(dir, "big.csv"), "-pack", "big")
	for _, format := range []string{"sdk", "sdm", "opensudoku"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(dir, "big."+format)
			exp := run(t, "export", "-db", db, "-size", "12", "-count", "1", "-format", format, "-out", out)
			r := run(t, "packs", "export", "big", "-db", db, "-format", format, "-out", out)
			want := "-format " + format + `: holds 9x9 puzzles only, and pack 1 "big" holds 12x12 puzzles; export it as csv, json or pdf`
			if r.code != 2 || r.code != exp.code || r.err == nil || !strings.Contains(r.err.Error(), want) {
				t.Errorf("packs export: status %d, error %v; want %d as export gives, and %q", r.code, r.err, exp.code, want)
			}
			if _, err := os.Lstat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}
