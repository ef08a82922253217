package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/pipeline"
)

// fake is a family made by fakeWork: its hash and level come from the
// item's random source, as a real family's would.
type fake struct {
	Index uint64
	Hash  uint64
	Level grade.Level
}

// fakeWork makes a fake family per item; dupEvery > 0 makes every item
// whose index is a multiple of it repeat item 0's family, and panicAt
// makes the items with that index remainder mod 7 panic.
func fakeWork(dupEvery uint64, panicAt int) func() pipeline.Work[pipeline.Item, fake] {
	return func() pipeline.Work[pipeline.Item, fake] {
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			src := it
			if dupEvery > 0 && it.Index%dupEvery == 0 {
				src.Index = 0
			}
			rng := src.Rand()
			f := fake{Index: it.Index, Hash: rng.Uint64(), Level: grade.Level(1 + rng.IntN(5))}
			if panicAt >= 0 && int(it.Index%7) == panicAt {
				panic("boom")
			}
			if rng.IntN(4) == 0 {
				time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond)
			}
			return pipeline.Result[fake]{Hash: f.Hash, Level: f.Level, Puzzles: 1, Value: f}
		}
	}
}

// sink collects written families and, as the store does, counts a
// family whose hash it holds as a duplicate.
type sink struct {
	mu      sync.Mutex
	got     []fake
	batches []int
	hashes  map[uint64]bool
}

func (s *sink) write(ctx context.Context, b []fake) (pipeline.Written, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, b...)
	s.batches = append(s.batches, len(b))
	if s.hashes == nil {
		s.hashes = map[uint64]bool{}
	}
	w := pipeline.Written{Puzzles: len(b)}
	for _, f := range b {
		if s.hashes[f.Hash] {
			w.DupFamilies++
			continue
		}
		s.hashes[f.Hash] = true
		w.Families++
		w.Levels[f.Level]++
	}
	return w, nil
}

func (s *sink) indexes() []uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ix []uint64
	for _, f := range s.got {
		ix = append(ix, f.Index)
	}
	slices.Sort(ix)
	return ix
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func run(t *testing.T, ctx context.Context, workers int, target *pipeline.Target, work func() pipeline.Work[pipeline.Item, fake]) (*sink, pipeline.Summary) {
	t.Helper()
	s := &sink{}
	sum, err := pipeline.Execute(ctx, pipeline.Config[pipeline.Item, fake]{
		Workers:       workers,
		Produce:       pipeline.Items(42, 0),
		NewWorker:     work,
		Target:        target,
		Write:         s.write,
		BatchFamilies: 7,
		Log:           quiet(),
		Describe:      func(it pipeline.Item) []any { return []any{"seed", it.Seed, "item", it.Index} },
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, sum
}

func TestRunSameFamiliesForAnyWorkers(t *testing.T) {
	levels := []grade.Level{grade.Easy, grade.Evil}
	want, _ := run(t, context.Background(), 1, pipeline.Count(200, levels), fakeWork(0, -1))
	if got := len(want.got); got != 200 {
		t.Fatalf("wrote %d families, want 200", got)
	}
	for _, f := range want.got {
		if f.Level != grade.Easy && f.Level != grade.Evil {
			t.Fatalf("family %d has level %v, not asked for", f.Index, f.Level)
		}
	}
	for _, w := range []int{2, 3, 8} {
		got, _ := run(t, context.Background(), w, pipeline.Count(200, levels), fakeWork(0, -1))
		if !slices.Equal(got.indexes(), want.indexes()) {
			t.Errorf("workers=%d: a different set of families from workers=1", w)
		}
	}
}

func TestRunQuota(t *testing.T) {
	want := pipeline.LevelCounts{0, 10, 0, 5, 0, 3}
	have := pipeline.LevelCounts{0, 4, 9, 5, 0, 0}
	s, sum := run(t, context.Background(), 4, pipeline.Quota(want, have), fakeWork(0, -1))
	var got pipeline.LevelCounts
	for _, f := range s.got {
		got[f.Level]++
	}
	if wantAdded := (pipeline.LevelCounts{0, 6, 0, 0, 0, 3}); got != wantAdded {
		t.Errorf("added per level = %v, want %v", got, wantAdded)
	}
	if sum.Levels != got {
		t.Errorf("summary levels = %v, want %v", sum.Levels, got)
	}
}

func TestRunSkipsDuplicates(t *testing.T) {
	s, sum := run(t, context.Background(), 3, pipeline.Count(100, nil), fakeWork(2, -1))
	seen := map[uint64]bool{}
	for _, f := range s.got {
		if seen[f.Hash] {
			t.Fatalf("family hash %x written twice", f.Hash)
		}
		seen[f.Hash] = true
	}
	if got, want := len(s.got), 100; got != want {
		t.Errorf("wrote %d, want %d", got, want)
	}
	if sum.Duplicates < 90 {
		t.Errorf("skipped %d duplicates, want about 100", sum.Duplicates)
	}
}

func TestRunSeenFromBank(t *testing.T) {
	first, _ := run(t, context.Background(), 2, pipeline.Count(50, nil), fakeWork(0, -1))
	var hs []uint64
	for _, f := range first.got {
		hs = append(hs, f.Hash)
	}
	s := &sink{}
	sum, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers: 2, Produce: pipeline.Items(42, 0), NewWorker: fakeWork(0, -1),
		Target: pipeline.Count(50, nil), Write: s.write, Seen: pipeline.NewSeen(hs), Log: quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.Duplicates, int64(50); got != want {
		t.Errorf("duplicates = %d, want %d (the first run's families)", got, want)
	}
	if got, want := s.indexes()[0], uint64(50); got != want {
		t.Errorf("first new family is item %d, want %d", got, want)
	}
}

func TestRunRecoversPanics(t *testing.T) {
	s, sum := run(t, context.Background(), 2, pipeline.Count(60, nil), fakeWork(0, 3))
	if got, want := len(s.got), 60; got != want {
		t.Errorf("wrote %d, want %d", got, want)
	}
	if sum.Failed == 0 {
		t.Error("no failed items counted")
	}
	for _, f := range s.got {
		if f.Index%7 == 3 {
			t.Errorf("item %d panicked but was written", f.Index)
		}
	}
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	slow := func() pipeline.Work[pipeline.Item, fake] {
		w := fakeWork(0, -1)()
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			if it.Index == 300 {
				cancel()
			}
			return w(ctx, it)
		}
	}
	s, sum := run(t, ctx, 2, pipeline.Count(1_000_000, nil), slow)
	if !sum.Interrupted {
		t.Error("summary does not say interrupted")
	}
	if sum.Admitted != sum.Families || int(sum.Families) != len(s.got) {
		t.Errorf("admitted %d, committed %d, written %d: want all equal", sum.Admitted, sum.Families, len(s.got))
	}
	ix := s.indexes()
	for i, x := range ix {
		if uint64(i) != x {
			t.Fatalf("written items are not a prefix: item %d at place %d", x, i)
		}
	}
	if len(ix) < 250 {
		t.Errorf("wrote %d, want the ~300 finished before the interrupt", len(ix))
	}
}

func TestRunWriteError(t *testing.T) {
	boom := errors.New("disk full")
	_, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers: 2, Produce: pipeline.Items(1, 0), NewWorker: fakeWork(0, -1),
		Target: pipeline.Count(1000, nil), BatchFamilies: 10, Log: quiet(),
		Write: func(context.Context, []fake) (pipeline.Written, error) { return pipeline.Written{}, boom },
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
}

// TestRunInputFails has the producer fail after 100 items, as a read
// error partway through an import does: the run ends with the
// producer's error as an *InputError, with no stage name added, after
// every item handed out is finished and written, as at the input's end.
func TestRunInputFails(t *testing.T) {
	eio := errors.New("line 101: input/output error")
	produce := func(ctx context.Context, emit func(pipeline.Item) bool) error {
		for i := range uint64(100) {
			if !emit(pipeline.Item{Seed: 1, Index: i}) {
				return nil
			}
		}
		return eio
	}
	for _, workers := range []int{1, 4} {
		s := &sink{}
		sum, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
			Workers: workers, Chunk: 8, Produce: produce, NewWorker: fakeWork(0, -1),
			BatchFamilies: 7, Write: s.write, Log: quiet(),
		})
		var ie *pipeline.InputError
		if !errors.As(err, &ie) || !errors.Is(err, eio) || err.Error() != eio.Error() {
			t.Errorf("workers %d: Execute error = %v, want the producer's %q as an *InputError", workers, err, eio)
		}
		if got := len(s.indexes()); got != 100 || sum.Items != 100 {
			t.Errorf("workers %d: %d items done, %d families written, want all 100 handed out", workers, sum.Items, got)
		}
	}
}

// TestRunFailedItemLog checks the log line of an item that failed or
// panicked: it says the item was skipped, or refused where the caller
// counts such inputs as refused (import), in the caller's word.
func TestRunFailedItemLog(t *testing.T) {
	failing := func() pipeline.Work[pipeline.Item, fake] {
		w := fakeWork(0, 2)() // the items 2, 9, ... panic
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			if it.Index == 4 {
				return pipeline.Result[fake]{Reason: pipeline.Failed, Err: errors.New("no room")}
			}
			return w(ctx, it)
		}
	}
	for _, tt := range []struct{ dropped, want string }{{"", "skipped"}, {"refused", "refused"}} {
		var log syncBuf
		s := &sink{}
		_, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
			Workers: 2, Produce: pipeline.Items(1, 0), NewWorker: failing, Target: pipeline.Count(10, nil),
			Write: s.write, Dropped: tt.dropped, Log: slog.New(slog.NewTextHandler(&log, nil)),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range []string{`msg="item failed; ` + tt.want + `"`, `msg="item panicked; ` + tt.want + `"`} {
			if !strings.Contains(log.String(), msg) {
				t.Errorf("Dropped %q: the log lacks %s:\n%s", tt.dropped, msg, log.String())
			}
		}
	}
}

func TestRunBatches(t *testing.T) {
	s, _ := run(t, context.Background(), 2, pipeline.Count(50, nil), fakeWork(0, -1))
	for _, n := range s.batches {
		if n > 7 {
			t.Errorf("a batch of %d, want at most 7", n)
		}
	}
}

func TestRunKeepDuplicates(t *testing.T) {
	s := &sink{}
	sum, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers: 2, Produce: pipeline.Items(7, 0), NewWorker: fakeWork(2, -1), Target: pipeline.Count(20, nil),
		Write: s.write, KeepDuplicates: true, Log: quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Items 0..39 or so: the even ones after 0 repeat item 0's family.
	if got, want := len(s.got), 20+int(sum.Duplicates); got != want {
		t.Errorf("wrote %d, want the 20 new families and the %d duplicates", got, sum.Duplicates)
	}
	if sum.Levels.Total() != 20 {
		t.Errorf("levels count %d families, want 20", sum.Levels.Total())
	}
}

func TestRunLogsSlowItems(t *testing.T) {
	var logged syncBuf
	slow := func() pipeline.Work[pipeline.Item, fake] {
		w := fakeWork(0, -1)()
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			if it.Index == 5 {
				time.Sleep(300 * time.Millisecond)
			}
			return w(ctx, it)
		}
	}
	_, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers: 2, Produce: pipeline.Items(1, 0), NewWorker: slow, Target: pipeline.Count(20, nil),
		Write:    (&sink{}).write,
		SlowItem: 50 * time.Millisecond,
		Log:      slog.New(slog.NewTextHandler(&logged, nil)),
		Describe: func(it pipeline.Item) []any { return []any{"item", it.Index} },
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := logged.String(); strings.Count(got, "still running") != 1 || !strings.Contains(got, "item=5") {
		t.Errorf("log = %q, want one line about item 5", got)
	}
}

// syncBuf is a log destination safe for concurrent writes.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunGivesUpOnStuckItems(t *testing.T) {
	for _, chunk := range []int{1, 4} {
		t.Run(fmt.Sprintf("Chunk=%d", chunk), func(t *testing.T) { testGivesUpOnStuckItems(t, chunk) })
	}
}

func testGivesUpOnStuckItems(t *testing.T, chunk int) {
	release := make(chan struct{})
	defer close(release)
	stuck := func() pipeline.Work[pipeline.Item, fake] {
		w := fakeWork(0, -1)()
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			if it.Index == 5 || it.Index == 6 {
				<-release // a loop that never ends, as far as the run can tell
			}
			return w(ctx, it)
		}
	}
	s := &sink{}
	sum, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers: 2, Chunk: chunk, Produce: pipeline.Items(1, 0), NewWorker: stuck, Target: pipeline.Count(20, nil),
		Write: s.write, SlowItem: 20 * time.Millisecond, ItemTimeout: 100 * time.Millisecond, Log: quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(s.got), 20; got != want || sum.Failed != 2 {
		t.Errorf("wrote %d with %d failed, want %d with 2 failed", got, sum.Failed, want)
	}
	for _, ix := range s.indexes() {
		if ix == 5 || ix == 6 {
			t.Errorf("stuck item %d written", ix)
		}
	}
}

// TestRunStopsGivenUpWork checks that the run tells the work of an item
// it gave up on to stop: the producer here waits for the stuck item to
// see its ctx done before it hands out the items the target needs, so
// the run ends only if the watchdog's give-up reaches the work.
func TestRunStopsGivenUpWork(t *testing.T) {
	freed := make(chan struct{})
	stuck := func() pipeline.Work[pipeline.Item, fake] {
		w := fakeWork(0, -1)()
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			if it.Index == 3 {
				<-ctx.Done() // a search that honours its context
				close(freed)
			}
			return w(ctx, it)
		}
	}
	produce := func(ctx context.Context, emit func(pipeline.Item) bool) error {
		for i := uint64(0); ; i++ {
			if i == 10 {
				select {
				case <-freed:
				case <-ctx.Done():
					return nil
				}
			}
			if !emit(pipeline.Item{Seed: 1, Index: i}) {
				return nil
			}
		}
	}
	s := &sink{}
	sum, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers: 2, Produce: produce, NewWorker: stuck, Target: pipeline.Count(20, nil),
		Write: s.write, SlowItem: 20 * time.Millisecond, ItemTimeout: 100 * time.Millisecond, Log: quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(s.got), 20; got != want || sum.Failed != 1 {
		t.Errorf("wrote %d with %d failed, want %d with 1 failed", got, sum.Failed, want)
	}
}

// TestRunFinish checks that Finish runs once, after FinishAfter new
// families reached the writer and with no batch written while it runs,
// that every family is still written, and that its error fails the run
// after the families held meanwhile are written.
func TestRunFinish(t *testing.T) {
	tests := []struct {
		name        string
		finishAfter int
		slowWriter  bool
		err         error
		wantCalls   int
	}{
		{"BeforeTheLastFamilies", 150, false, nil, 1},
		{"AtTheLastFamily", 200, false, nil, 1},
		{"NotWhenTheRunEndsFirst", 201, false, nil, 0},
		{"NotWhenTheWriterIsBehind", 150, true, nil, 0},
		{"ErrorFailsTheRun", 150, false, errors.New("no room"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &sink{}
			var (
				mu        sync.Mutex
				running   bool
				calls     int
				writtenAt int
				batchesAt int // batches written when Finish returned
				overlap   bool
				stats     = &pipeline.Stats{}
			)
			write := func(ctx context.Context, b []fake) (pipeline.Written, error) {
				mu.Lock()
				overlap = overlap || running
				mu.Unlock()
				if tt.slowWriter {
					time.Sleep(5 * time.Millisecond)
				}
				return s.write(ctx, b)
			}
			// The workers take 0.2 ms an item, and the writer that keeps
			// up a few microseconds a batch. The slow writer takes 5 ms a
			// batch behind workers that take no time, so that it spends
			// the whole run writing however a loaded host stretches the
			// sleeps: against workers that sleep, a host that made their
			// sleeps slower than its own once let it keep up.
			work := func() pipeline.Work[pipeline.Item, fake] {
				w := fakeWork(0, -1)()
				return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
					if !tt.slowWriter {
						time.Sleep(200 * time.Microsecond)
					}
					return w(ctx, it)
				}
			}
			finish := func(ctx context.Context) error {
				mu.Lock()
				running, calls = true, calls+1
				mu.Unlock()
				writtenAt = len(s.indexes())
				// Until the workers made two batches more than were
				// written (a batch for the writer to hold, another for
				// its queue of 8) or all 200, and a little longer for
				// the writer to take what it will of them.
				for deadline := time.Now().Add(10 * time.Second); stats.Admitted.Load() < int64(min(200, writtenAt+16)) && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				time.Sleep(20 * time.Millisecond)
				mu.Lock()
				running = false
				mu.Unlock()
				s.mu.Lock()
				batchesAt = len(s.batches)
				s.mu.Unlock()
				return tt.err
			}
			_, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
				Workers:       2,
				Produce:       pipeline.Items(42, 0),
				NewWorker:     work,
				Target:        pipeline.Count(200, nil),
				Write:         write,
				Stats:         stats,
				Finish:        finish,
				FinishAfter:   tt.finishAfter,
				BatchFamilies: 8,
				Log:           quiet(),
			})
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Execute error = %v, want %v", err, tt.err)
				}
				// The families held while Finish ran are written all the
				// same: they do not need it.
				if got := len(s.indexes()); got <= writtenAt {
					t.Errorf("wrote %d families after Finish failed, the same as when it began: the held batch was dropped", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if calls != tt.wantCalls {
				t.Errorf("Finish called %d times, want %d", calls, tt.wantCalls)
			}
			if overlap {
				t.Error("a batch was written while Finish ran")
			}
			if got := len(s.indexes()); got != 200 {
				t.Errorf("wrote %d families, want 200", got)
			}
			// The writer writes what it holds when the families reach
			// FinishAfter, before Finish: every family it received, which
			// (a chunk being one item) is FinishAfter.
			if calls > 0 && writtenAt != tt.finishAfter {
				t.Errorf("%d families written when Finish began, want %d", writtenAt, tt.finishAfter)
			}
			// While Finish runs the workers make the last 50 families, and
			// the writer takes a whole batch of them (8) rather than stop
			// at a quarter batch and leave the workers waiting on a full
			// queue; it writes them first when Finish returns.
			if calls > 0 && tt.finishAfter <= 150 {
				s.mu.Lock()
				held := s.batches[batchesAt]
				s.mu.Unlock()
				if held < 8 {
					t.Errorf("the first batch after Finish held %d families, want a whole batch (8)", held)
				}
			}
		})
	}
}

// TestRunGathersWhileWriting checks that the writer takes families while
// a batch is being written, up to a whole batch more, so that the workers
// go on rather than wait on a full queue for every write; that writes
// never overlap; and that every family is written once, in order.
func TestRunGathersWhileWriting(t *testing.T) {
	s := &sink{}
	stats := &pipeline.Stats{}
	var (
		mu               sync.Mutex
		writing, overlap bool
		calls            int
		admittedAt       int64 // when the first write went on
	)
	// The batch being written (8), a whole batch held (8), the queue (8
	// messages of one family) and the collector's next message: a writer
	// that took nothing while it wrote would stop the worker at 17. One
	// worker hands the results over in order, so the collector holds no
	// run of them admitted at once that could pass the bound by chance.
	const want = 24
	write := func(ctx context.Context, b []fake) (pipeline.Written, error) {
		mu.Lock()
		overlap = overlap || writing
		writing, calls = true, calls+1
		first := calls == 1
		mu.Unlock()
		if first {
			for deadline := time.Now().Add(10 * time.Second); stats.Admitted.Load() < want && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			admittedAt = stats.Admitted.Load()
		}
		w, err := s.write(ctx, b)
		mu.Lock()
		writing = false
		mu.Unlock()
		return w, err
	}
	_, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
		Workers:       1,
		Produce:       pipeline.Items(42, 0),
		NewWorker:     fakeWork(0, -1),
		Target:        pipeline.Count(200, nil),
		Write:         write,
		Stats:         stats,
		BatchFamilies: 8,
		Log:           quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if admittedAt < want {
		t.Errorf("the worker stopped at %d families admitted while the first batch was written, want %d or more", admittedAt, want)
	}
	if overlap {
		t.Error("two batches were written at once")
	}
	if len(s.got) != 200 {
		t.Fatalf("wrote %d families, want 200", len(s.got))
	}
	for i, f := range s.got {
		if f.Index != uint64(i) {
			t.Fatalf("family %d written is item %d, want the items in order", i, f.Index)
		}
	}
}

// TestRunGivesUp checks that a run whose target gives up stops after the
// budget's items with an UnreachableError, having written the families it
// admitted before, the same for any number of workers.
func TestRunGivesUp(t *testing.T) {
	// The work never makes evil families.
	work := func() pipeline.Work[pipeline.Item, fake] {
		inner := fakeWork(0, -1)()
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			r := inner(ctx, it)
			if r.Level == grade.Evil {
				r.Level, r.Value.Level = grade.Easy, grade.Easy
			}
			return r
		}
	}
	var first []uint64
	for _, w := range []int{1, 2} {
		target := pipeline.Count(1000, []grade.Level{grade.Easy, grade.Evil})
		target.GiveUpAfter(100)
		s := &sink{}
		sum, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
			Workers: w, Produce: pipeline.Items(42, 0), NewWorker: work, Target: target, Write: s.write, Log: quiet(),
		})
		var ue *pipeline.UnreachableError
		if !errors.As(err, &ue) || ue.Level != grade.Evil || ue.Items != 100 {
			t.Fatalf("workers %d: err = %v, want evil unreachable after 100 items", w, err)
		}
		if sum.Items != 100 || sum.Interrupted || len(s.got) == 0 || int64(len(s.got)) != sum.Families {
			t.Errorf("workers %d: %d items, interrupted %v, %d written (%d counted)", w, sum.Items, sum.Interrupted, len(s.got), sum.Families)
		}
		if w == 1 {
			first = s.indexes()
		} else if !slices.Equal(s.indexes(), first) {
			t.Errorf("workers %d wrote other families than one worker", w)
		}
	}
}

// moreWork is fakeWork whose every third item makes two more families
// (Result.More), as a search's walk does.
func moreWork() pipeline.Work[pipeline.Item, fake] {
	one := fakeWork(0, -1)()
	return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
		r := one(ctx, it)
		if it.Index%3 == 0 {
			for k := range uint64(2) {
				f := fake{Index: 1000*(it.Index+1) + k + 1, Hash: r.Hash + k + 1, Level: r.Level}
				r.More = append(r.More, pipeline.Result[fake]{Hash: f.Hash, Level: f.Level, Puzzles: 1, Value: f})
			}
		}
		return r
	}
}

// TestRunMoreFamilies checks that an item's More families are admitted
// after it, counted as families but not as items, up to the target and
// not past it, whatever the workers.
func TestRunMoreFamilies(t *testing.T) {
	want, sum := run(t, context.Background(), 1, pipeline.Count(7, nil), moreWork)
	// Items 0 (3 families), 1, 2 and 3 (2 of its 3).
	if got, wantIx := want.indexes(), []uint64{0, 1, 2, 3, 1001, 1002, 4001}; !slices.Equal(got, wantIx) {
		t.Errorf("wrote families %v, want %v", got, wantIx)
	}
	if sum.Items != 4 || sum.Admitted != 7 {
		t.Errorf("%d items, %d admitted; want 4 and 7", sum.Items, sum.Admitted)
	}
	for _, w := range []int{2, 3} {
		got, _ := run(t, context.Background(), w, pipeline.Count(7, nil), moreWork)
		if !slices.Equal(got.indexes(), want.indexes()) {
			t.Errorf("workers=%d: families %v, want %v", w, got.indexes(), want.indexes())
		}
	}
}

// BenchmarkEngineWriter runs the engine with one worker that spins 20 µs
// a family and a writer that waits 15 µs a family of its batch without
// using a core: the shape of a many-core run, where the writer has a core
// of its own, keeps up on average, and each batch's write takes tens of
// milliseconds. It reports families/s: the worker alone makes 50,000.
func BenchmarkEngineWriter(b *testing.B) {
	const n = 40000
	spin := func() pipeline.Work[pipeline.Item, fake] {
		return func(ctx context.Context, it pipeline.Item) pipeline.Result[fake] {
			for t0 := time.Now(); time.Since(t0) < 20*time.Microsecond; {
			}
			return pipeline.Result[fake]{Hash: it.Index + 1, Level: 1, Puzzles: 1, Value: fake{Index: it.Index}}
		}
	}
	write := func(ctx context.Context, batch []fake) (pipeline.Written, error) {
		time.Sleep(time.Duration(len(batch)) * 15 * time.Microsecond)
		return pipeline.Written{Families: len(batch), Puzzles: len(batch)}, nil
	}
	var took time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
			Workers:       1,
			Chunk:         16,
			Produce:       pipeline.Items(1, 0),
			NewWorker:     spin,
			Target:        pipeline.Count(n, nil),
			Write:         write,
			BatchFamilies: 4000,
			Log:           quiet(),
		}); err != nil {
			b.Fatal(err)
		}
		took += time.Since(t0)
	}
	b.ReportMetric(float64(n*b.N)/took.Seconds(), "families/s")
}
