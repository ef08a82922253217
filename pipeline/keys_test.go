package pipeline_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// TestQuotaKeyFilter checks the families each kind of key counts.
func TestQuotaKeyFilter(t *testing.T) {
	for _, tc := range []struct {
		key  pipeline.QuotaKey
		want store.Filter
	}{
		{pipeline.QuotaKey{Name: "x-wing", Hardest: grade.XWing}, store.Filter{Hardest: "x-wing"}},
		{pipeline.QuotaKey{Name: "9.0-", RatingMin: 90}, store.Filter{RatingMin: 90}},
		{pipeline.QuotaKey{Name: "4.0-6.9", RatingMin: 40, RatingMax: 69}, store.Filter{RatingMin: 40, RatingMax: 69}},
	} {
		if got := tc.key.Filter(); got.Hardest != tc.want.Hardest || got.RatingMin != tc.want.RatingMin || got.RatingMax != tc.want.RatingMax {
			t.Errorf("%s: Filter = %+v, want %+v", tc.key.Name, got, tc.want)
		}
	}
}

// TestGenerateKeys checks that a run of keys tops the bank up to each,
// tells Start what they lack, and that the same keys again add nothing.
func TestGenerateKeys(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	keys := []pipeline.QuotaKey{
		{Name: "4.0-6.9", RatingMin: 40, RatingMax: 69, Want: 3},
		{Name: "pointing", Hardest: grade.Pointing, Want: 2},
	}
	for _, want := range []struct{ total, families int }{{5, 5}, {0, 0}} {
		seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
		if err != nil {
			t.Fatal(err)
		}
		started, stopped := -1, false
		sum, err := pipeline.GenerateKeys(ctx, db, pipeline.KeysConfig{
			GenerateConfig: pipeline.GenerateConfig{
				BuildOptions: pipeline.BuildOptions{Seen: seen},
				Seed:         3, Workers: 2, Log: quiet(),
			},
			Keys:  keys,
			Start: func(total int) func() { started = total; return func() { stopped = true } },
		})
		if err != nil {
			t.Fatal(err)
		}
		if started != want.total || !stopped {
			t.Errorf("Start(%d), stopped %v; want Start(%d) and stopped", started, stopped, want.total)
		}
		if sum.Families > int64(want.families) {
			t.Errorf("last pass made %d families, want at most %d", sum.Families, want.families)
		}
		for _, k := range keys {
			if n, err := db.CountFamilies(ctx, k.Filter()); err != nil || int(n) != k.Want {
				t.Errorf("%s: %d families, %v; want %d", k.Name, n, err, k.Want)
			}
		}
	}
}

// TestOverlappingKeyQuotaRunsStopOnTheQuota runs two passes of one key
// that both counted the bank before either wrote, as two overlapping
// bankgen -quota x-wing=N runs do: each sets out to add the whole quota,
// and the store's cap (GenerateConfig.KeyCap) must still stop the bank
// on it. The families the cap left out count as over the quota, not as
// of an unwanted level, and the log says so.
func TestOverlappingKeyQuotaRunsStopOnTheQuota(t *testing.T) {
	ctx := context.Background()
	a, b := openTwo(t)
	for _, key := range []pipeline.QuotaKey{
		{Name: "pointing", Hardest: grade.Pointing, Want: 6},
		{Name: "4.0-6.9", RatingMin: 40, RatingMax: 69, Want: 5},
	} {
		t.Run(key.Name, func(t *testing.T) {
			have, err := a.CountFamilies(ctx, key.Filter())
			if err != nil {
				t.Fatal(err)
			}
			need := key.Want - int(have)
			type run struct {
				db   *store.DB
				seen *pipeline.Seen
				seed uint64
			}
			runs := []*run{{db: a, seed: 1}, {db: b, seed: 2}}
			for _, r := range runs {
				if r.seen, _, err = pipeline.LoadBank(ctx, r.db, grid.Nine); err != nil {
					t.Fatal(err)
				}
			}
			total, over := int64(0), int64(0)
			var log strings.Builder
			for _, r := range runs {
				o := pipeline.BuildOptions{Seen: r.seen, RatingMin: key.RatingMin, RatingMax: key.RatingMax, NoSearch: true}
				if key.Hardest != grade.NoTechnique {
					o.Hardest = []grade.Technique{key.Hardest}
				}
				sum, err := pipeline.Generate(ctx, r.db, pipeline.GenerateConfig{
					BuildOptions: o, Seed: r.seed, Target: pipeline.Count(need, nil), Workers: 2, Log: slog.New(slog.NewTextHandler(&log, nil)),
					KeyCap: &store.KeyCap{Hardest: key.Filter().Hardest, RatingMin: int(key.RatingMin), RatingMax: int(key.RatingMax), Max: int64(key.Want)},
				})
				if err != nil {
					t.Fatal(err)
				}
				total += sum.Families
				over += sum.OverQuota
				if sum.OffLevel != 0 {
					t.Errorf("run %d: %d families of unwanted levels, want none", r.seed, sum.OffLevel)
				}
			}
			// Each run admitted need families; the second found the
			// quota filled.
			if over != int64(need) {
				t.Errorf("the runs' summaries count %d families over the quota, want %d", over, need)
			}
			// One line a batch, which may be several.
			logged := 0
			for _, m := range regexp.MustCompile(`over a quota: the bank reached it before they were written" families=(\d+)`).FindAllStringSubmatch(log.String(), -1) {
				n, _ := strconv.Atoi(m[1])
				logged += n
			}
			if logged != need {
				t.Errorf("the log says %d families were left out over the quota, want %d:\n%s", logged, need, log.String())
			}
			if n, err := a.CountFamilies(ctx, key.Filter()); err != nil || int(n) != key.Want {
				t.Errorf("the bank holds %d families of %s (%v), want the quota %d", n, key.Name, err, key.Want)
			}
			if total != int64(need) {
				t.Errorf("the runs' summaries add up to %d families, want %d", total, need)
			}
		})
	}
}

// TestGenerateKeysFromStarts checks that a pass of a key searches from
// the bank's families nearest the key (KeysConfig.FromBank), read
// before the first pass: every family it stores meets the key, the log
// names the key it loaded start points for, and one worker makes the
// same families as two.
func TestGenerateKeysFromStarts(t *testing.T) {
	ctx := context.Background()
	// The bank holds 5 families rated 8.5 or more, and 2 more just under.
	puzzles := slices.Concat(hardPuzzles, symPuzzles)
	keys := []pipeline.QuotaKey{{Name: "8.5-", RatingMin: 85, Want: 7}}
	run := func(workers int) []string {
		db := MustBank(t, puzzles)
		seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
		if err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		_, err = pipeline.GenerateKeys(ctx, db, pipeline.KeysConfig{
			GenerateConfig: pipeline.GenerateConfig{
				BuildOptions: pipeline.BuildOptions{Seen: seen, SearchStall: 32},
				Seed:         7, Workers: workers, Log: slog.New(slog.NewTextHandler(&log, nil)), FromBank: true,
			},
			Keys: keys,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(log.String(), `msg="searching from the bank's hardest families too" quota=8.5- families=7`) {
			t.Errorf("the log does not say the pass starts from the bank's 7 families nearest 8.5-:\n%s", log.String())
		}
		if n, err := db.CountFamilies(ctx, keys[0].Filter()); err != nil || n != 7 {
			t.Errorf("%d families rated 8.5 or more (%v), want 7", n, err)
		}
		return checkGenerated(t, db, &pipeline.BuildOptions{RatingMin: 85}, func(solve.Grid) bool { return true })
	}
	if one, two := run(1), run(2); len(one) != 2 || !slices.Equal(one, two) {
		t.Errorf("one worker made\n%q\ntwo made\n%q\nwant the same 2 families", one, two)
	}
}

// TestGenerateKeysCountOneSize checks that a quota of a rating band, like
// a level quota, counts the families of the run's size alone: a bank
// that holds the 9x9 families a key asks for still lacks them in 6x6,
// and a 6x6 pass makes them (it once counted the 9x9 ones and made
// none, and its writer's cap refused every 6x6 family).
func TestGenerateKeysCountOneSize(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	six, err := grid.ShapeOf(6)
	if err != nil {
		t.Fatal(err)
	}
	keys := []pipeline.QuotaKey{{Name: "-1.5", RatingMax: 15, Want: 3}}
	for _, shape := range []grid.Shape{grid.Nine, six} {
		seen, _, err := pipeline.LoadBank(ctx, db, shape)
		if err != nil {
			t.Fatal(err)
		}
		total := -1
		sum, err := pipeline.GenerateKeys(ctx, db, pipeline.KeysConfig{
			GenerateConfig: pipeline.GenerateConfig{
				BuildOptions: pipeline.BuildOptions{Shape: shape, Seen: seen},
				Seed:         5, Workers: 2, Log: quiet(),
			},
			Keys:  keys,
			Start: func(n int) func() { total = n; return func() {} },
		})
		if err != nil {
			t.Fatalf("%s: %v", shape, err)
		}
		if total != 3 || sum.Families != 3 {
			t.Errorf("%s: the key lacked %d families and the pass made %d; want 3 and 3", shape, total, sum.Families)
		}
		f := keys[0].Filter()
		f.Size = shape.N
		if n, err := db.CountFamilies(ctx, f); err != nil || n != 3 {
			t.Errorf("%s: %d families rated 1.5 or less (%v), want 3", shape, n, err)
		}
	}
}
