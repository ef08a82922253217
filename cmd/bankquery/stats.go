package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/plural"
	"sudokubank/internal/summary"
	"sudokubank/store"
)

const statsUsage = `Usage: bankquery stats [-db puzzles.db] [-json] [-size N]

Stats prints what the bank holds: families and puzzles (variants) per
level, the number of puzzles per level and number of givens, the packs
exported and the families reserved to clients, the generator's runs, and
for each technique the families of each level whose solve uses it (and
their puzzles). A bank that holds grids of a size other than 9x9 has
these counts once per size, after the totals; -size N prints those of
N x N grids alone (4, 6, 8, 9, 12, 16 or 25).
It reads counters kept by the bank, not the puzzles, so it is quick on
any size of bank. -json prints the same as one JSON object.

Examples:
  bankquery stats
  bankquery stats -size 16
  bankquery stats -db /data/puzzles.db -json | jq .levels
`

// statsJSON is the object stats -json prints: the bank's counts, as
// bankserve serves them, between its name and its packs and runs.
type statsJSON struct {
	Bank          string `json:"bank"`
	SchemaVersion int    `json:"schema_version"`
	summary.Counts
	Packs packStatsJSON `json:"packs"`
	Runs  []runJSON     `json:"runs"`
}

type packStatsJSON struct {
	Packs            int64 `json:"packs"`
	Released         int64 `json:"released"` // of the packs
	Puzzles          int64 `json:"puzzles"`  // of every pack, released or not
	ReservedFamilies int64 `json:"reserved_families"`
	Clients          int64 `json:"clients"`
}

// runJSON is a run as runs -json and stats -json print it.
type runJSON struct {
	ID           int64    `json:"id"`
	Kind         string   `json:"kind"`
	Source       string   `json:"source"`
	Args         []string `json:"args"`
	Status       string   `json:"status"`
	Seed         uint64   `json:"seed"`
	CodeVersion  string   `json:"code_version"`
	StartedAt    string   `json:"started_at"`
	EndedAt      string   `json:"ended_at,omitempty"`
	Families     int64    `json:"families"`
	Puzzles      int64    `json:"puzzles"`
	DupFamilies  int64    `json:"dup_families"`
	DupPuzzles   int64    `json:"dup_puzzles"`
	Rejected     int64    `json:"rejected"`
	AddedNothing bool     `json:"added_nothing"`
	Message      string   `json:"message,omitempty"`
	Params       string   `json:"params,omitempty"`
	// ProcessEnded says that a run still recorded as running has no
	// process any more (it was killed): the next bankgen records it.
	ProcessEnded bool `json:"process_ended,omitempty"`
}

func runStats(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery stats", flag.ContinueOnError)
	db := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	size := fs.String("size", "", "only the counts of `N` x N grids (4, 6, 8, 9, 12, 16, 25)")
	bank, err := parseAndOpen(ctx, e, fs, statsUsage, args, db)
	if bank == nil {
		return err
	}
	defer bank.Close()
	var shape grid.Shape
	if *size != "" {
		if shape, err = grid.ParseShape(*size); err != nil {
			return usageError{Err: fmt.Errorf("-size %q: %w", *size, err)}
		}
	}
	st, err := bank.Stats(ctx)
	if err != nil {
		return err
	}
	if shape.N != 0 {
		st = st.OfSize(shape.N)
	}
	runs, err := bank.Runs(ctx)
	if err != nil {
		return err
	}
	s := makeStatsJSON(*db, st, runs)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	return printStats(e.stdout, s)
}

func makeStatsJSON(path string, st store.Stats, runs []store.Run) statsJSON {
	s := statsJSON{
		Bank: path, SchemaVersion: st.SchemaVersion, Counts: summary.Of(st), Runs: []runJSON{},
		Packs: packStatsJSON{Packs: st.Packs, Released: st.Released, Puzzles: st.PackItems, ReservedFamilies: st.Reserved, Clients: st.Clients},
	}
	for _, r := range runs {
		s.Runs = append(s.Runs, makeRunJSON(r))
	}
	return s
}

// printStats prints the summary as text: totals, a table of puzzles per
// givens (rows) and level (columns), the packs and the runs; for a bank
// with sizes other than 9x9, the totals and then the tables of each size.
func printStats(w io.Writer, s statsJSON) error {
	var b strings.Builder
	fmt.Fprintf(&b, "bank %s (schema %d)\n", s.Bank, s.SchemaVersion)
	fmt.Fprintf(&b, "%s, %s (%s puzzles a family)\n", plural.Count(s.Families, "family"), plural.Count(s.Puzzles, "puzzle"), perFamily(s.Puzzles, s.Families))
	if len(s.Sizes) == 0 {
		b.WriteString("\n")
		printCounts(&b, s.Counts)
	}
	for _, z := range s.Sizes {
		fmt.Fprintf(&b, "\n== %dx%d: %s, %s (%s puzzles a family)\n\n", z.Size, z.Size, plural.Count(z.Families, "family"), plural.Count(z.Puzzles, "puzzle"), perFamily(z.Puzzles, z.Families))
		printCounts(&b, z.Counts)
	}

	packs := plural.Count(s.Packs.Packs, "pack")
	if s.Packs.Released > 0 {
		// A released pack keeps its puzzles for export, but no longer
		// holds its families (-fresh, reservations).
		packs += fmt.Sprintf(" (%d released)", s.Packs.Released)
	}
	fmt.Fprintf(&b, "\n%s holding %s; %s reserved to %s\n",
		packs, plural.Count(s.Packs.Puzzles, "puzzle"), plural.Count(s.Packs.ReservedFamilies, "family"), plural.Count(s.Packs.Clients, "client"))

	if len(s.Runs) == 0 {
		fmt.Fprintln(&b, "\nno generator runs")
	} else {
		fmt.Fprintln(&b, "\nruns:")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tstatus\tstarted\tended\tfamilies\tpuzzles\tdup families\tdup puzzles\trejected\tseed\t")
		for _, r := range s.Runs {
			ended := r.EndedAt
			if ended == "" {
				ended = "-"
			}
			status := r.Status
			if r.ProcessEnded {
				status += " (process ended)"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", r.ID, status, r.StartedAt, ended,
				r.Families, r.Puzzles, r.DupFamilies, r.DupPuzzles, r.Rejected, r.Seed)
		}
		tw.Flush()
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// printCounts prints the tables of c: families and puzzles per level,
// puzzles per number of givens and level, and the families and puzzles
// whose solve uses each technique, per level.
func printCounts(b *strings.Builder, c summary.Counts) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "level\tname\tfamilies\tpuzzles\ta family\t")
	for _, l := range c.Levels {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%s\t\n", l.Level, l.Name, l.Families, l.Puzzles, perFamily(l.Puzzles, l.Families))
	}
	tw.Flush()

	if len(c.Buckets) > 0 {
		fmt.Fprintln(b, "\npuzzles per number of givens (rows) and level (columns):")
		cells := map[[2]int]int64{}
		lo, hi := math.MaxInt, 0
		for _, k := range c.Buckets {
			cells[[2]int{k.Givens, k.Level}] = k.Puzzles
			lo, hi = min(lo, k.Givens), max(hi, k.Givens)
		}
		tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "givens\t1\t2\t3\t4\t5\ttotal\t")
		for g := lo; g <= hi; g++ {
			row := strconv.Itoa(g)
			var total int64
			for l := 1; l <= 5; l++ {
				n := cells[[2]int{g, l}]
				total += n
				row += "\t" + dash(n)
			}
			if total > 0 {
				fmt.Fprintf(tw, "%s\t%s\t\n", row, dash(total))
			}
		}
		tw.Flush()
	}

	if len(c.Techniques) > 0 {
		fmt.Fprintln(b, "\nfamilies/puzzles whose solve uses each technique, per level (columns):")
		tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "technique\t1\t2\t3\t4\t5\ttotal\t")
		for i := 0; i < len(c.Techniques); {
			name := c.Techniques[i].Technique
			var cells [6][2]int64 // by level; 0 is the total
			for ; i < len(c.Techniques) && c.Techniques[i].Technique == name; i++ {
				t := c.Techniques[i]
				if t.Level >= 1 && t.Level <= 5 {
					cells[t.Level] = [2]int64{t.Families, t.Puzzles}
				}
				cells[0][0] += t.Families
				cells[0][1] += t.Puzzles
			}
			row := name
			for l := 1; l <= 5; l++ {
				row += "\t" + famPuzzles(cells[l])
			}
			fmt.Fprintf(tw, "%s\t%s\t\n", row, famPuzzles(cells[0]))
		}
		tw.Flush()
	}
}

// perFamily formats puzzles per family with one decimal, "-" for none.
func perFamily(puzzles, families int64) string {
	if families == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(puzzles)/float64(families), 'f', 1, 64)
}

// dash formats a count, "." for zero so that the table's shape shows.
func dash(n int64) string {
	if n == 0 {
		return "."
	}
	return strconv.FormatInt(n, 10)
}

// famPuzzles formats a families and puzzles count as "F/P", "." for no
// family.
func famPuzzles(c [2]int64) string {
	if c[0] == 0 {
		return "."
	}
	return strconv.FormatInt(c[0], 10) + "/" + strconv.FormatInt(c[1], 10)
}

// compareTechniques orders technique slugs as the grader lists them.
var compareTechniques = grade.CompareSlugs
