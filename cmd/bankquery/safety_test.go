package main_test

import (
	"bytes"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/store"
)

// TestExportNeverReplacesTheBank names the bank, or the WAL and
// shared-memory files SQLite keeps beside it, as the output, in every
// spelling, with -force: each is refused and the bank keeps working with
// no pack recorded.
func TestExportNeverReplacesTheBank(t *testing.T) {
	db := MustBank(t)
	dir := filepath.Dir(db)
	other := t.TempDir()
	link := filepath.Join(other, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(other, "hard.db")
	if err := os.Link(db, hard); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, out string }{
		{"Bank", db},
		{"DotDot", filepath.Join(dir, "x", "..", "puzzles.db")},
		{"DotSlash", dir + "/./puzzles.db"},
		{"DoubleSlash", dir + "//puzzles.db"},
		{"ThroughSymlinkedDir", filepath.Join(link, "puzzles.db")},
		{"HardLink", hard},
		{"WAL", db + "-wal"},
		{"SharedMemory", db + "-shm"},
		{"WALThroughSymlinkedDir", filepath.Join(link, "puzzles.db-wal")},
		{"Journal", db + "-journal"},
	}
	for _, tt := range tests {
		for _, mode := range []string{"Recorded", "NoRecord"} {
			t.Run(tt.name+mode, func(t *testing.T) {
				args := []string{"export", "-db", db, "-count", "3", "-format", "sdm", "-out", tt.out, "-force"}
				if mode == "NoRecord" {
					args = append(args, "-no-record")
				}
				r := run(t, args...)
				if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), "is the bank") {
					t.Errorf("exit status %d, error %v; want 2 (a usage error) and the bank named", r.code, r.err)
				}
			})
		}
	}
	if packs := MustPacks(t, db); len(packs) != 0 {
		t.Errorf("refused exports recorded %d packs", len(packs))
	}
	mustRun(t, "stats", "-db", db)
	// A reader may leave a WAL behind, but never an export in its place.
	if b, err := os.ReadFile(db + "-wal"); err == nil && len(b) > 0 && !bytes.HasPrefix(b, []byte{0x37, 0x7f, 0x06}) {
		t.Errorf("the bank's WAL holds %q", b[:min(len(b), 100)])
	}
	if a, b := mustStat(t, db), mustStat(t, hard); !os.SameFile(a, b) {
		t.Error("the bank and its hard link are no longer one file")
	}
}

func mustStat(tb testing.TB, path string) fs.FileInfo {
	tb.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return fi
}

// TestCommandsRefuseWhatIsNotABank runs every command, the recording
// export included, on files that are not banks yet: each is refused with
// status 1 and left as it was, with nothing beside it. Only bankgen
// makes banks.
func TestCommandsRefuseWhatIsNotABank(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	emptySQLite := filepath.Join(dir, "empty-sqlite.db")
	rawSQLite(t, emptySQLite)
	out := filepath.Join(t.TempDir(), "out.sdm")
	for _, bank := range []string{empty, emptySQLite, filepath.Join(dir, "missing.db")} {
		before, _ := os.ReadFile(bank)
		for _, args := range [][]string{
			{"export", "-count", "3", "-format", "sdm", "-out", out},
			{"export", "-count", "3", "-format", "sdm", "-out", out, "-pack", "p", "-client", "acme"},
			{"export", "-count", "3", "-format", "sdm", "-out", out, "-no-record"},
			{"stats"},
			{"list"},
			{"packs"},
			{"show", "1"},
		} {
			name := filepath.Base(bank) + "/" + strings.Join(args[:min(len(args), 1)], "")
			t.Run(name, func(t *testing.T) {
				r := run(t, append([]string{args[0], "-db", bank}, args[1:]...)...)
				if r.code != 1 {
					t.Errorf("%v: exit status %d, error %v; want 1", args, r.code, r.err)
				}
				after, err := os.ReadFile(bank)
				if before == nil && bank != empty {
					if err == nil {
						t.Errorf("%v made %s", args, bank)
					}
				} else if !bytes.Equal(after, before) {
					t.Errorf("%v changed %s: %d bytes, was %d", args, bank, len(after), len(before))
				}
			})
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "empty-sqlite.db empty.db" {
		t.Errorf("the directory holds %v, want only the two files", names)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an export was written")
	}
}

// rawSQLite makes an SQLite file with nothing in it, as another
// program might leave one.
func rawSQLite(tb testing.TB, path string) {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA page_size = 4096; VACUUM"); err != nil {
		tb.Fatal(err)
	}
}

// TestExportToStdout writes the pack to standard output with -out -: the
// same bytes as a file export of the same sample, the report on stderr,
// the pack recorded, and no file named "-".
func TestExportToStdout(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "pack.sdm")
	common := []string{"export", "-db", db, "-count", "5", "-seed", "9", "-format", "sdm", "-no-record"}
	mustRun(t, append(common, "-out", file)...)
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := exe(t, dir, append(common, "-out", "-")...)
	if r.code != 0 || r.stdout != string(want) {
		t.Errorf("-out - -no-record: status %d, stdout %q; want 0 and %q\nstderr: %s", r.code, r.stdout, want, r.stderr)
	}
	if !strings.Contains(r.stderr, "wrote standard output (sdm, 5 puzzles); not recorded") {
		t.Errorf("stderr %q, want the report", r.stderr)
	}

	r = exe(t, dir, "export", "-db", db, "-count", "5", "-format", "csv", "-out", "-", "-pack", "piped", "-client", "acme")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 6 || strings.Contains(r.stdout, "wrote") {
		t.Errorf("-out -: status %d, stdout %q; want 0 and a header and 5 rows\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	packs := MustPacks(t, db)
	if len(packs) != 1 || packs[0].Name != "piped" || packs[0].Client != "acme" {
		t.Errorf("packs %+v, want one named piped for acme", packs)
	}
	r = exe(t, dir, "export", "-db", db, "-count", "5", "-format", "json", "-out", "-")
	if packs := MustPacks(t, db); r.code != 0 || len(packs) != 2 || !strings.HasSuffix(packs[1].Name, "-stdout") {
		t.Errorf("automatic name: status %d, packs %+v; want a name ending in -stdout", r.code, packs)
	}

	r = exe(t, dir, "export", "-db", db, "-count", "5", "-format", "pdf", "-out", "-")
	if r.code != 2 || r.stdout != "" {
		t.Errorf("a pdf to standard output: status %d, %d bytes out; want 2 and nothing", r.code, len(r.stdout))
	}
	if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
		t.Error(`a file named "-" was made`)
	}
}

// TestExportNames refuses names that would print as something else, and
// keeps an automatic pack name printable whatever the output's name.
func TestExportNames(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "x.sdm")
	long := strings.Repeat("n", store.MaxNameLen+1)
	for _, tt := range []struct{ name, flag, value string }{
		{"PackNewline", "-pack", "p\n   99  forged"},
		{"PackTooLong", "-pack", long},
		{"ClientOverride", "-client", "acme\u202Eemca"},
		{"ClientTab", "-client", "ac\tme"},
		{"TitleEscape", "-title", "Evil \x1b[2J"},
		{"TitleIsolate", "-title", "a\u2066b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "export", "-db", db, "-count", "2", "-format", "sdm", "-out", out, tt.flag, tt.value)
			if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), tt.flag) {
				t.Errorf("exit status %d, error %v; want 2 naming %s", r.code, r.err, tt.flag)
			}
		})
	}
	if packs := MustPacks(t, db); len(packs) != 0 {
		t.Errorf("refused exports recorded %d packs", len(packs))
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused export wrote its file")
	}

	for _, base := range []string{"odd\nname.sdm", strings.Repeat("é", 100) + ".sdm", strings.Repeat("é", 100) + ".sdm"} {
		// Twice: within one second, the second export's name takes a number.
		mustRun(t, "export", "-db", db, "-count", "2", "-format", "sdm", "-out", filepath.Join(dir, base), "-force")
	}
	for _, p := range MustPacks(t, db) {
		if err := store.CheckName(p.Name); err != nil {
			t.Errorf("automatic pack name %q: %v", p.Name, err)
		}
	}
}

// TestPacksQuotesOldBadNames lists a pack whose name a bank recorded
// before names were checked: one row, the name quoted.
func TestPacksQuotesOldBadNames(t *testing.T) {
	db := MustBank(t)
	mustRun(t, "export", "-db", db, "-count", "2", "-format", "sdm", "-out", filepath.Join(t.TempDir(), "x.sdm"), "-pack", "p")
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE packs SET name = ?, client = ?", "p\n1  forged", "acme\u202E"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	out := mustRun(t, "packs", "-db", db)
	if got := strings.Count(out, "\n"); got != 2 || !strings.Contains(out, `"p\n1  forged"`) || !strings.Contains(out, `"acme\u202e"`) {
		t.Errorf("packs printed %d lines:\n%s\nwant a header and one row with the names quoted", got, out)
	}
}

// TestEmptyFileIsNoBankYet: bankquery refuses a 0-byte -db as bankgen
// sees it, the place of a bank not made yet, and says how one is made.
func TestEmptyFileIsNoBankYet(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "stats", "-db", empty)
	want := "empty file (0 bytes), no bank yet (bankgen -db " + empty + " makes one in it)"
	if r.code != 1 || r.err == nil || !strings.Contains(r.err.Error(), want) {
		t.Errorf("stats of an empty file: exit %d, error %v; want 1 and %q", r.code, r.err, want)
	}
}
