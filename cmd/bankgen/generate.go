package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/cli"
	"sudokubank/pipeline"
	"sudokubank/store"
)

const generateUsage = `Usage: bankgen [-db puzzles.db] [-count N] [-level L,...] [-quota LEVEL=N,...]
               [-givens A-B] [-rating A-B] [-technique T,...] [-technique-any T,...]
               [-search=false]
               [-variants K] [-symmetry NAME] [-size N] [-seed S] [-shard I/N] [-workers W] [-quiet]
               [-sync normal|full] [-cpuprofile FILE] [-memprofile FILE]
       bankgen import [-db puzzles.db] [-source NAME] [-strict] [-workers W]
                      [-quiet] [-sync normal|full] FILE|-
       bankgen merge -db OUT.db [-packs refuse|drop] SHARD.db...

bankgen generates graded Sudoku families (essentially different puzzles) and
adds them to the bank, skipping any family the bank already holds.

-count N adds N new families of the levels in -level. -quota instead sets
targets for the bank's totals per level, so that the same command, run again
after an interruption, finishes the job and then does nothing. Levels are
named extremely-easy, easy, medium, difficult, evil, or numbered 1 to 5.

-givens A-B stores only puzzles with A to B givens (17 to 80; A- and -B leave
an end open). Without it each level is printed with the givens it usually has:
extremely-easy 36-46, easy 28-34, medium 26-31, difficult 24-30, evil 22-28
(a dig that grades at another level gets that level's givens and is graded
again; one its symmetry lets dig no further, and families a search for a
rare target finds, keep theirs).
A level that the range cannot give (evil with 50 givens), or gives too rarely,
ends the run with an error after 20000 tries.

-size N makes N x N grids instead of 9x9: 4, 6, 8, 12, 16 or 25 (boxes of
2x2, 2x3, 2x4, 3x4, 4x4, 5x5), graded on the same scale and levels; -givens
is then 1 to N*N-1. Without it the levels, extremely-easy to evil, are printed
with these givens, moved as on 9x9 (4x4 puzzles are all extremely-easy, 5-10):
  6x6:   12-20, 9-12, 8-11, 8-11, 8-11
  8x8:   23-30, 17-22, 16-22, 16-22, 16-21
  12x12: 60-75, 50-59, 42-56, 40-52, 38-50
  16x16: 120-140, 110-119, 100-119, 100-115, 85-112
  25x25: 380-450, 320-339, 305-325, 305-325, 285-299
The symmetries rot90, diagonal and antidiagonal need square boxes: not 6x6,
8x8 or 12x12, where -symmetry random draws rot180, mirror or flip. The small
sizes hold few essentially different puzzles: a run that finds only families
the bank has for 20000 tries ends, saying the space is exhausted.

-rating A-B keeps only families whose SE rating is in the range (9.0- and
-7.5 leave an end open); -technique keeps those whose hardest step is one of
the techniques named, -technique-any those whose solve uses one of them
(slugs as bankquery list -hardest takes them, e.g. x-wing). A target no
family meets in 20000 tries ends the run with an error, and one that the
levels or techniques rule out (x-wing rated 9.0-) ends it at once. -quota
also takes techniques and rating bands as keys (x-wing=500,9.0-=100): each
is topped up in turn, counting the bank's families whose hardest step is the
technique or whose rating is in the band; runs at once on one bank stop on
each quota together. Every quota counts the families of the run's -size.

For a rare target (rated 7.5 or more, or a technique) each
try digs a puzzle and then searches its neighbourhood: puzzles with a few
givens moved, or the same solution dug again, each kept as a family when it
meets the target; a target no search meets in 250 tries ends the run.
Three tries in four start instead from one of the bank's 256 families of
the run's size nearest the target (the hardest first): with -symmetry,
families with that symmetry, whose walks keep it; with -technique-any,
families using one of the techniques; with a -quota of techniques or rating
bands, the families nearest each key the bank lacks, as it was when the run
began. A walk at a target of 9.5 or more climbs, to neighbours rated no
lower. On sizes other than 9x9 only the tries that start from the bank's
families search, and on 12x12 and up only for a target rated under 7.5 (a
-technique below the forcing chains); the others dig. -search=false digs
only fresh puzzles.

-shard I/N builds shard I of N of the job the other flags give (-seed is
needed): the seed's items I, I+N, I+2N, ..., and -count and -quota are the
whole job's totals, of which shard I takes its share (total/N, one more for
I < total%N). Run again after an interruption or a kill, the same command
finishes the shard: the families its earlier runs stored count toward its
share, and it ends holding what one run makes. Build each shard into a
bank of its own, on any machine, then join them with bankgen merge.

Interrupt (Ctrl-C) once to stop and keep what is done (exit status 130);
twice to quit at once.

Examples:
  bankgen                                 # 1000 families into puzzles.db
  bankgen -count 5000 -level evil,4       # 5000 evil or difficult families
  bankgen -quota easy=1000,evil=200       # top the bank up to these totals
  bankgen -level easy -givens 32-38       # easy puzzles with 32 to 38 givens
  bankgen -count 100 -rating 9.0-         # 100 families rated 9.0 or more
  bankgen -count 50 -technique x-wing     # 50 families whose hardest step is an x-wing
  bankgen -variants 20 -symmetry rot180   # symmetric givens, 20 variants each
  bankgen -size 6 -count 200              # 6x6 puzzles for children's books
  bankgen -seed 42 -workers 1 -db a.db    # reproducible: same seed, same families
  bankgen -seed 42 -shard 0/4 -count 1000000 -db s0.db   # a quarter of a job
`

// generateOptions are the flags of the generating command.
type generateOptions struct {
	db       string
	count    int
	levels   []grade.Level
	quota    quotaFlag
	givens   givensFlag
	rating   ratingFlag
	hardest  techniquesFlag // -technique
	uses     techniquesFlag // -technique-any
	search   bool           // search rare targets' neighbourhoods (-search)
	variants int
	symmetry symmetryFlag
	size     sizeFlag
	seed     uint64
	seedSet  bool
	shard    pipeline.Shard // -shard; the zero value is the whole job
	workers  int
	quiet    bool
	sync     syncFlag
	cpuprof  string // write a CPU profile of the run here
	memprof  string // write an allocation profile of the run here
}

// parseGenerate reads the generating command's flags.
func parseGenerate(args []string, stdout io.Writer) (generateOptions, error) {
	var o generateOptions
	fs := flag.NewFlagSet("bankgen", flag.ContinueOnError)
	fs.StringVar(&o.db, "db", "puzzles.db", "the bank `file`, created if missing or empty (0 bytes, with a warning)")
	fs.IntVar(&o.count, "count", 1000, fmt.Sprintf("add `N` new families (at most %d)", maxFamilies))
	fs.Var((*levelsFlag)(&o.levels), "level", "keep only these `levels` (names or numbers, comma-separated); all when omitted")
	fs.Var(&o.quota, "quota", fmt.Sprintf("targets for the bank's totals, `KEY=N,...` (N at most %d), instead of -count: levels, or techniques and rating bands (x-wing=500,9.0-=100)", maxFamilies))
	fs.Var(&o.givens, "givens", "store only puzzles with `A-B` givens (17-80); each level's usual range when omitted")
	fs.Var(&o.rating, "rating", "keep only families whose SE rating is in `A-B`, e.g. 9.0- or 7.0-7.4")
	fs.Var(&o.hardest, "technique", "keep only families whose hardest step is one of these `techniques` (slugs, comma-separated, e.g. x-wing)")
	fs.Var(&o.uses, "technique-any", "keep only families whose solve uses one of these `techniques` (slugs, comma-separated)")
	fs.BoolVar(&o.search, "search", true, "for a rare target (rated 7.5 or more, or a technique), search the neighbourhoods of the puzzles dug; false: only dig")
	fs.IntVar(&o.variants, "variants", 0, fmt.Sprintf("store `K` more distinct puzzles per family, sharing its grade (at most %d)", pipeline.MaxVariants))
	fs.Var(&o.size, "size", fmt.Sprintf("make `N` x N grids: %s (boxes 2x2, 2x3, 2x4, 3x3, 3x4, 4x4, 5x5)", grid.SizeList()))
	fs.Var(&o.symmetry, "symmetry", "the givens' symmetry, `NAME`: none (the default), rot180, rot90, mirror, flip, diagonal, antidiagonal, or random")
	shard := fs.String("shard", "", "build shard `I/N` of the job (0 <= I < N): the items I, I+N, ... of the seed, and the shard's share of -count or -quota; -seed is needed")
	seed := fs.String("seed", "", "the run's `seed` (a 64-bit number); random when omitted, and printed")
	fs.IntVar(&o.workers, "workers", defaultWorkers(), "`W` worker goroutines, 1 to 8 per CPU")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress (the summary is still printed)")
	fs.Var(&o.sync, "sync", "`normal`: a power cut may lose the last commits; full: every commit is on disk before the next batch (slower)")
	fs.StringVar(&o.cpuprof, "cpuprofile", "", "write a CPU profile of the run to `file` (for go tool pprof)")
	fs.StringVar(&o.memprof, "memprofile", "", "write a profile of the run's allocations to `file` (for go tool pprof -sample_index alloc_space)")
	if err := cli.ParseFlags(fs, generateUsage, args, stdout); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usageError{Err: fmt.Errorf("unexpected argument %q (the subcommands are import and merge)", fs.Arg(0))}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := checkWorkers(o.workers); err != nil {
		return o, err
	}
	switch {
	case o.quota.set && set["count"]:
		return o, usageError{Err: errors.New("-count and -quota cannot be used together")}
	case len(o.quota.keys) > 0 && set["level"]:
		return o, usageError{Err: errors.New("-level cannot be used with a -quota of techniques or rating bands: the quota counts the bank's families of every level")}
	case o.quota.set && set["level"]:
		return o, usageError{Err: errors.New("-level and -quota cannot be used together: -quota names its levels")}
	case len(o.quota.keys) > 0 && (set["rating"] || set["technique"]):
		return o, usageError{Err: errors.New("-rating and -technique cannot be used with a -quota of techniques or rating bands: the quota names its targets")}
	case o.count < 0:
		return o, usageError{Err: fmt.Errorf("invalid value %d for flag -count: must be 0 or more", o.count)}
	case o.count > maxFamilies:
		return o, usageError{Err: fmt.Errorf("invalid value %d for flag -count: must be %d or fewer (a run that long takes days; run again for more)", o.count, maxFamilies)}
	case o.variants < 0:
		return o, usageError{Err: fmt.Errorf("invalid value %d for flag -variants: must be 0 or more", o.variants)}
	case o.variants > pipeline.MaxVariants:
		return o, usageError{Err: fmt.Errorf("invalid value %d for flag -variants: must be %d or fewer (a run holds about a thousand families' puzzles in memory)", o.variants, pipeline.MaxVariants)}
	case o.db == "":
		return o, usageError{Err: errors.New("invalid value \"\" for flag -db: a file name is needed")}
	}
	if o.size.shape.N == 0 {
		o.size.shape = grid.Nine
	}
	if err := o.givens.bounds(o.size.shape); err != nil {
		return o, err
	}
	if sym := o.symmetry.sym; !o.symmetry.random && !sym.ValidFor(o.size.shape) {
		return o, usageError{Err: fmt.Errorf("invalid value %q for flag -symmetry: a %s grid has %dx%d boxes, and %s needs square ones", sym, o.size.shape, o.size.shape.BoxRows, o.size.shape.BoxCols, sym)}
	}
	if err := checkSizeLevels(o); err != nil {
		return o, err
	}
	if *seed != "" {
		s, err := strconv.ParseUint(*seed, 0, 64)
		if err != nil {
			return o, usageError{Err: fmt.Errorf("invalid value %q for flag -seed: want a number from 0 to 2^64-1", *seed)}
		}
		o.seed, o.seedSet = s, true
	} else {
		o.seed = cli.RandomSeed()
	}
	if *shard != "" {
		sh, err := pipeline.ParseShard(*shard)
		if err != nil {
			return o, usageError{Err: fmt.Errorf("invalid value for flag -shard: %w", err)}
		}
		if !o.seedSet {
			return o, usageError{Err: errors.New("-shard needs -seed: every shard of a job must draw from the same seed")}
		}
		o.shard = sh
		o.shareJob()
	}
	return o, nil
}

// shareJob turns the job's totals, -count and -quota, into the shard's
// shares of them (pipeline.Shard.Share), so that the shards together
// meet the totals.
func (o *generateOptions) shareJob() {
	o.count = o.shard.Share(o.count)
	if o.quota.set {
		o.quota.want = o.shard.ShareCounts(o.quota.want)
		for i := range o.quota.keys {
			o.quota.keys[i].Want = o.shard.Share(o.quota.keys[i].Want)
		}
	}
}

// runGenerate is the generating command.
func runGenerate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseGenerate(args, stdout)
	if err != nil {
		return err
	}
	// Damage any read of the bank meets is said as such.
	return store.Damaged(o.db, generate(ctx, o, args, stdout, stderr))
}

// checkSizeLevels refuses a level the run's size never reaches (a 4x4
// puzzle needs nothing beyond singles), named by -level or -quota.
func checkSizeLevels(o generateOptions) error {
	shape := o.size.shape
	if shape == grid.Nine {
		return nil
	}
	has := pipeline.SizedLevels(shape)
	asked := slices.Clone(o.levels)
	for l, n := range o.quota.want {
		if n > 0 {
			asked = append(asked, grade.Level(l))
		}
	}
	for _, l := range asked {
		if !slices.Contains(has, l) {
			var names []string
			for _, h := range has {
				names = append(names, h.String())
			}
			return usageError{Err: fmt.Errorf("%s puzzles have no %s level: the levels of %s are %s", shape, l, shape, strings.Join(names, ", "))}
		}
	}
	return nil
}
