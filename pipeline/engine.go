package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"sudokubank/grade"
	"sudokubank/store"
)

// Reason says what became of an item.
type Reason uint8

// What became of an item. Workers return Kept, Duplicate, OffLevel,
// Invalid, Failed, OffGivens or OffTarget; the collector may turn Kept into
// Duplicate or OffLevel when it admits results in item order.
const (
	Kept      Reason = iota // a new family, to be stored
	Duplicate               // its family is already in the bank or earlier in the run
	OffLevel                // its level is not wanted, or that level's quota is full
	Invalid                 // the input is not a proper puzzle (import)
	Failed                  // the work panicked or returned an error: a bug
	OffGivens               // its puzzle's givens are outside the run's range
	OffTarget               // its grade misses the run's rating or technique target
)

// String names the reason for logs and reports.
func (r Reason) String() string {
	switch r {
	case Kept:
		return "kept"
	case Duplicate:
		return "duplicate"
	case OffLevel:
		return "off-level"
	case Invalid:
		return "invalid"
	case Failed:
		return "failed"
	case OffGivens:
		return "off-givens"
	case OffTarget:
		return "off-target"
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Result is what a worker made of one item.
type Result[T any] struct {
	Reason  Reason
	Hash    uint64      // hash of the canonical form (Kept, Duplicate)
	Level   grade.Level // the family's level (Kept, OffLevel)
	Puzzles int         // puzzles the family stores: 1 + its variants (Kept)
	Value   T           // what the writer stores (Kept)
	Err     error       // what was wrong (Invalid, Failed)
	// More are further families the same item made (a search's walk
	// finds several), each a Kept result of its own, admitted after
	// this one in order; the item counts once.
	More []Result[T]
}

// Work makes the result of one input. A Work belongs to one worker
// goroutine, so it may keep scratch state (a solver, a grader) between
// calls. Its ctx is done when the run no longer wants the result (the
// target is met, the run failed, or the watchdog gave up on the item),
// and it should then return soon: the result is dropped. An interrupted
// run lets the items in flight finish, and admits them.
type Work[In, Out any] func(ctx context.Context, in In) Result[Out]

// Written is what the store did with one batch.
type Written struct {
	Families    int // families inserted
	Puzzles     int // puzzles inserted
	DupFamilies int // families in the batch the store already had
	DupPuzzles  int // puzzles in the batch the store already had
	// OverCap counts new families the store left out because the bank
	// had reached a quota: their level's cap or the key's
	// (store.WriteBatchLimited).
	OverCap int
	Levels  LevelCounts // families inserted per level
}

// Config wires a run together.
type Config[In, Out any] struct {
	// Workers is the number of worker goroutines; 0 means GOMAXPROCS.
	Workers int
	// Window bounds how far the producer may run ahead of the oldest item
	// not yet admitted; 0 means 64 per worker.
	Window int
	// Chunk is how many inputs a worker takes at a time, and returns the
	// results of in one message; 0 means 1, and it is at most Window.
	// Chunks make the hand-offs between goroutines, each a wake-up of a
	// parked goroutine on another core, rarer; but a producer that may
	// wait for its input (a pipe) holds up to a chunk of it meanwhile.
	Chunk int
	// Produce calls emit with each input in turn, and stops when emit
	// reports false. An error it returns ends the input there: Execute
	// finishes the inputs emitted and returns it as an *InputError.
	Produce func(ctx context.Context, emit func(In) bool) error
	// NewWorker returns the Work of one worker. It is called once per
	// worker, and again after a panic so no damaged state is reused.
	NewWorker func() Work[In, Out]
	// Seen is the dedup set; nil means an empty one.
	Seen *Seen
	// KeepDuplicates sends Duplicate results that carry a Value (Puzzles
	// > 0) to the writer too: the store keeps their puzzles as variants of
	// the family it has, as import does.
	KeepDuplicates bool
	// Target decides which families to admit; nil means Unlimited.
	Target *Target
	// Resumed holds the hashes of the families earlier runs of the same
	// job stored: one of them, admitted, counts toward the target as a
	// new family does, but is not written again (Stats.Resumed).
	Resumed map[uint64]struct{}
	// Write stores one batch of admitted families in one transaction.
	Write func(ctx context.Context, batch []Out) (Written, error)
	// Finish, if set, is work the store must do once before the run
	// ends, such as building the indexes a bulk load deferred, started
	// once FinishAfter new families reached the writer, so that it runs
	// beside the workers' last families; a writer behind the workers, or
	// a run that ends first, leaves it to the caller. The writer writes
	// what it holds first, holds up to a batch while Finish runs, and
	// writes quarter batches after it (see writeBatches).
	Finish      func(ctx context.Context) error
	FinishAfter int
	// BatchFamilies and BatchPuzzles bound a batch; FlushEvery bounds how
	// long a family waits for its batch. Zero means 1000, 50000 and 500ms.
	BatchFamilies, BatchPuzzles int
	FlushEvery                  time.Duration
	// OnResult, if set, sees every finished input in input order, from one
	// goroutine (import reports bad lines with it).
	OnResult func(in In, r *Result[Out])
	// Describe returns slog attributes that identify an input, for the log
	// line of a failed item (its seed and index).
	Describe func(in In) []any
	// Dropped is the word that the log line of a failed item gives what
	// became of it, the word the caller's summary counts it under:
	// "skipped" (the default, as bankgen's summary has it) or "refused"
	// (import's).
	Dropped string
	// SlowItem is how long an item may run before the log says so, with
	// its description: results are admitted in item order, so a stuck
	// item stalls the run. Zero means one minute.
	SlowItem time.Duration
	// ItemTimeout is how long an item may run before the run gives up on
	// it: it counts as failed and a new worker takes its place (Go cannot
	// stop the stuck goroutine). Only a bug makes an item this slow, and
	// then which items are admitted may depend on timing. Zero means ten
	// minutes.
	ItemTimeout time.Duration
	// Log receives failures; nil means slog.Default().
	Log *slog.Logger
	// Stats receives the live counters; nil means fresh ones.
	Stats *Stats
}

// The defaults and bounds of a run's batches and writer's queue, which
// inFlightPuzzles reports.
const (
	defaultBatchPuzzles = 50000 // Config.BatchPuzzles when zero
	// queueFamilies bounds the families queued for the writer: the queue
	// holds that many over Config.Chunk messages of at most a chunk.
	queueFamilies = 1000
)

// minInFlightMemory is the least room MemoryBudget leaves for the
// puzzles in flight, which a few families of many variants fill.
const minInFlightMemory = 256 << 20

// MemoryBudget is the heap a Generate or import run reaches on top of
// what it holds when it starts, with familyPuzzles puzzles a family: the
// puzzles between admission and the store (inFlightPuzzles, at
// store.PuzzleMemory each, 256 MiB at least), and for a writer in bulk
// mode (store.Options.DeferIndexes) the store's in-memory keys. A caller
// that limits its heap (debug.SetMemoryLimit) leaves room for it.
func MemoryBudget(familyPuzzles int, bulk bool) int64 {
	m := max(minInFlightMemory, int64(inFlightPuzzles(familyPuzzles))*store.PuzzleMemory)
	if bulk {
		m += store.BulkKeyMemory
	}
	return m
}

// inFlightPuzzles bounds the puzzles a run holds between admitting its
// families and storing them, when each family has familyPuzzles puzzles
// and Config.BatchPuzzles is left at its default: the batch the writer
// commits and the one it fills meanwhile, each with the rest of the
// chunk that passes it, and the families queued for it. The results the
// workers and the collector hold before that, a window's worth, are not
// counted.
func inFlightPuzzles(familyPuzzles int) int {
	familyPuzzles = max(familyPuzzles, 1)
	return 2*defaultBatchPuzzles + (2*generateChunk+queueFamilies)*familyPuzzles
}

// Stats are the live counters of a run, safe for concurrent use.
type Stats struct {
	Items      atomic.Int64 // items admitted in order (every reason)
	Admitted   atomic.Int64 // families admitted, to be written
	Resumed    atomic.Int64 // families earlier runs of the job stored, counted toward the target again
	Duplicates atomic.Int64 // families skipped: in the bank already, or earlier in the run
	OffLevel   atomic.Int64 // families skipped for their level
	OffGivens  atomic.Int64 // puzzles skipped for their number of givens
	OffTarget  atomic.Int64 // families skipped for their rating or techniques
	OverQuota  atomic.Int64 // families the store left out: the bank had reached a quota (Written.OverCap)
	Invalid    atomic.Int64 // inputs rejected
	Failed     atomic.Int64 // items that panicked or failed
	Families   atomic.Int64 // families committed to the store
	Puzzles    atomic.Int64 // puzzles committed to the store
	DupPuzzles atomic.Int64 // puzzles the store already had
	levels     [grade.Evil + 1]atomic.Int64
}

// Snapshot is a copy of the counters at one moment.
type Snapshot struct {
	Items, Admitted, Resumed, Duplicates, OffLevel, OffGivens, OffTarget, OverQuota, Invalid, Failed, Families, Puzzles, DupPuzzles int64
	Levels                                                                                                                          LevelCounts // families committed per level
}

// Snapshot returns the counters now.
func (s *Stats) Snapshot() Snapshot {
	n := Snapshot{
		Items: s.Items.Load(), Admitted: s.Admitted.Load(), Resumed: s.Resumed.Load(), Duplicates: s.Duplicates.Load(),
		OffLevel: s.OffLevel.Load(), OffGivens: s.OffGivens.Load(), OffTarget: s.OffTarget.Load(), OverQuota: s.OverQuota.Load(), Invalid: s.Invalid.Load(), Failed: s.Failed.Load(),
		Families: s.Families.Load(), Puzzles: s.Puzzles.Load(), DupPuzzles: s.DupPuzzles.Load(),
	}
	for l := range n.Levels {
		n.Levels[l] = int(s.levels[l].Load())
	}
	return n
}

// Summary is the outcome of a run.
type Summary struct {
	Snapshot
	Elapsed     time.Duration
	Interrupted bool // ctx was cancelled before the target was met
	// Exhausted, when set, says why a run ended short of its target
	// without failing: it found only families the bank has
	// (ExhaustedError).
	Exhausted string
}

// job is an input with its place in the run.
type job[In any] struct {
	idx uint64
	in  In
}

// done is a finished job.
type done[In, Out any] struct {
	job[In]
	r Result[Out]
}

// admitted is a family on its way to the writer.
type admitted[Out any] struct {
	v       Out
	level   grade.Level
	puzzles int
	dup     bool // the family is known: only its puzzles may be new
}

// Execute runs the pipeline until the target is met, the producer runs
// dry or fails (*InputError), or ctx is cancelled. On cancellation it
// stops taking new work, admits and writes what is finished, and reports
// Interrupted. Every family admitted is written before Execute returns,
// unless a write fails.
func Execute[In, Out any](ctx context.Context, c Config[In, Out]) (Summary, error) {
	start := time.Now()
	r := newRun(ctx, c.withDefaults())
	defer r.stop()
	defer r.interrupt()
	defer context.AfterFunc(ctx, r.interrupt)()

	r.g.Go(r.produce)
	r.startWorkers()
	r.g.Go(r.collect)
	r.g.Go(r.write)

	err := r.g.Wait()
	if err == nil {
		err = r.gaveUp
	}
	if err == nil && r.inputErr != nil {
		err = r.inputErr
	}
	// Workers exit on gctx after an error; abandoned ones are not waited for.
	<-r.workersDone
	s := Summary{
		Snapshot:    r.c.Stats.Snapshot(),
		Elapsed:     time.Since(start),
		Interrupted: ctx.Err() != nil && !r.targetMet,
	}
	return s, err
}

// withDefaults returns c with its zero fields set to their defaults.
func (c Config[In, Out]) withDefaults() Config[In, Out] {
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Window <= 0 {
		c.Window = 64 * c.Workers
	}
	// A chunk no bigger than the window cannot deadlock: when every item
	// before the producer's unsent chunk is admitted, that chunk holds
	// fewer tokens than the window has.
	c.Chunk = min(max(c.Chunk, 1), c.Window)
	if c.Seen == nil {
		c.Seen = NewSeen(nil)
	}
	if c.Target == nil {
		c.Target = Unlimited()
	}
	if c.BatchFamilies <= 0 {
		c.BatchFamilies = 1000
	}
	if c.BatchPuzzles <= 0 {
		c.BatchPuzzles = defaultBatchPuzzles
	}
	if c.FlushEvery <= 0 {
		c.FlushEvery = 500 * time.Millisecond
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.SlowItem <= 0 {
		c.SlowItem = time.Minute
	}
	if c.ItemTimeout <= 0 {
		c.ItemTimeout = 10 * time.Minute
	}
	if c.Stats == nil {
		c.Stats = new(Stats)
	}
	if c.Describe == nil {
		c.Describe = func(In) []any { return nil }
	}
	if c.Dropped == "" {
		c.Dropped = "skipped"
	}
	return c
}

// run is one Execute: a producer hands out items in chunks, workers make
// their results, a collector admits them in item order, and a writer
// stores the admitted families in batches.
type run[In, Out any] struct {
	c   Config[In, Out]
	ctx context.Context // the caller's: cancelled on interrupt

	// The group outlives a cancelled ctx, so that finished work is still
	// admitted and written; it is cancelled only by an error. workCtx,
	// cancelled by a met target (stop), stops the work on items;
	// stopCtx, cancelled by ctx too (interrupt), stops the producer and
	// the workers' taking new items.
	g                *errgroup.Group
	gctx             context.Context
	workCtx, stopCtx context.Context
	stop, interrupt  context.CancelFunc
	tokens           chan struct{}        // one per item handed out and not yet admitted: the window
	jobs             chan []job[In]       // producer to workers
	results          chan []done[In, Out] // workers to collector
	toWriter         chan []admitted[Out] // collector to writer
	targetMet        bool                 // the collector's, read after it ends
	gaveUp           error                // set by the collector: see Target.GiveUpAfter
	inputErr         *InputError          // set by the producer, read after it ends
	active           atomic.Int64         // workers running; the last one out closes results
	workersDone      chan struct{}        // closed with results
	slots            []*busy[In, Out]     // what each worker is doing, for the watchdog
}

func newRun[In, Out any](ctx context.Context, c Config[In, Out]) *run[In, Out] {
	r := &run[In, Out]{c: c, ctx: ctx}
	r.g, r.gctx = errgroup.WithContext(context.WithoutCancel(ctx))
	r.workCtx, r.stop = context.WithCancel(r.gctx)
	r.stopCtx, r.interrupt = context.WithCancel(r.workCtx)
	r.tokens = make(chan struct{}, c.Window)
	r.jobs = make(chan []job[In], c.Workers)
	r.results = make(chan []done[In, Out], c.Workers)
	// The writer's queue smooths the hand-over: the writer takes families
	// while a batch is written, so the queue need not hold a commit's
	// worth, and more would only hold memory (100 variants a family make
	// a family 30 KB).
	r.toWriter = make(chan []admitted[Out], max(1, min(c.BatchFamilies, queueFamilies)/c.Chunk))
	r.workersDone = make(chan struct{})
	r.targetMet = c.Target.Done()
	if r.targetMet {
		r.stop()
	}
	return r
}

// produce hands out the producer's items in chunks, each item taking a
// token of the window first.
func (r *run[In, Out]) produce() error {
	setRole("producer")
	defer close(r.jobs)
	c := r.c
	var idx uint64
	chunk := make([]job[In], 0, c.Chunk)
	send := func() bool {
		select {
		case r.jobs <- chunk:
			chunk = make([]job[In], 0, c.Chunk) // the worker owns the sent one
			return true
		case <-r.stopCtx.Done():
			return false
		}
	}
	emit := func(in In) bool {
		select {
		case r.tokens <- struct{}{}:
		case <-r.stopCtx.Done():
			return false
		}
		chunk = append(chunk, job[In]{idx, in})
		idx++
		return len(chunk) < c.Chunk || send()
	}
	err := c.Produce(r.stopCtx, emit)
	if len(chunk) > 0 {
		send()
	}
	if err != nil && r.stopCtx.Err() == nil {
		// The input ends where it failed: the items handed out are
		// finished and written, as at its end, and Execute reports the
		// failure once they are.
		r.inputErr = &InputError{Err: err}
	}
	return nil
}

// InputError is the producer's failure (Config.Produce): the input could
// not be read on. The items it handed out before were finished and
// written, as if the input had ended there.
type InputError struct{ Err error }

// Error returns the producer's error's message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the producer's error.
func (e *InputError) Unwrap() error { return e.Err }

// startWorkers starts the workers and their watchdog. Workers are
// counted by hand rather than with a WaitGroup: the watchdog may give up
// on a worker stuck in one item, start another in its place and count
// the stuck one out.
func (r *run[In, Out]) startWorkers() {
	r.slots = make([]*busy[In, Out], r.c.Workers)
	r.active.Add(int64(r.c.Workers))
	for w := range r.slots {
		r.startWorker(w, nil)
	}
	go watch(r.c, r.slots, r.workersDone, r.giveUp)
}

// startWorker starts a worker in slot w, with first as its first chunk.
func (r *run[In, Out]) startWorker(w int, first []job[In]) {
	wctx, cancel := context.WithCancel(r.workCtx)
	r.slots[w] = &busy[In, Out]{cancel: cancel}
	go r.work(wctx, r.slots[w], first)
}

// leave counts a worker out; the last one closes results.
func (r *run[In, Out]) leave() {
	if r.active.Add(-1) == 0 {
		close(r.results)
		close(r.workersDone)
	}
}

// giveUp gives up on item b.j of slot w: its work is told to stop, and
// it counts as failed, with the results its chunk had before it, so that
// later items can be admitted; a new worker takes slot w's place and the
// rest of the chunk.
func (r *run[In, Out]) giveUp(w int, b *busy[In, Out]) {
	r.slots[w].cancel()
	r.active.Add(1)
	r.startWorker(w, b.rest)
	out := append(b.out, done[In, Out]{b.j, Result[Out]{Reason: Failed, Err: fmt.Errorf("gave up after %v", r.c.ItemTimeout)}})
	select {
	case r.results <- out:
	case <-r.gctx.Done():
	}
	r.leave()
}

// work is one worker: it makes the results of the chunks it takes, with
// the work of wctx, and sends each chunk's results in one message.
func (r *run[In, Out]) work(wctx context.Context, slot *busy[In, Out], first []job[In]) {
	setRole("worker")
	c := r.c
	abandoned := false
	defer func() {
		slot.cancel()
		if !abandoned {
			r.leave()
		}
	}()
	work := c.NewWorker()
	// do works through one chunk and sends its results in one message;
	// false means the worker must quit.
	do := func(chunk []job[In]) bool {
		out := make([]done[In, Out], 0, len(chunk))
		for i, j := range chunk {
			if r.stopCtx.Err() != nil {
				break // drain: the producer is stopping too
			}
			slot.start(j, chunk[i+1:], out)
			res := safeDo(wctx, &work, c, j.in)
			if abandoned = slot.stop(); abandoned {
				return false // the watchdog gave up on this item, took over the chunk, and counted us out
			}
			if r.stopCtx.Err() != nil && r.ctx.Err() == nil {
				continue // the target was met while this item ran
			}
			out = append(out, done[In, Out]{j, res})
		}
		if len(out) == 0 {
			return true
		}
		select {
		case r.results <- out:
			return true
		case <-r.gctx.Done():
			return false
		}
	}
	if len(first) > 0 && !do(first) {
		return
	}
	for chunk := range r.jobs {
		if !do(chunk) {
			return
		}
	}
}

// collect admits the workers' results in item order, returning a token
// of the window for each, and sends the admitted families to the writer.
func (r *run[In, Out]) collect() error {
	setRole("collector")
	defer close(r.toWriter)
	c := r.c
	// The results stay in the slices they came in, which no one else
	// touches once sent: a result with its family is a few hundred
	// bytes, which copies into the map and out of it would allocate
	// again for every item.
	pending := make(map[uint64]*done[In, Out])
	var next uint64
	for ds := range r.results {
		if r.targetMet {
			continue // drain
		}
		for i := range ds {
			pending[ds[i].idx] = &ds[i]
		}
		out := make([]admitted[Out], 0, len(ds)) // the families admitted from ds
		for !r.targetMet {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-r.tokens
			a, keep := admit(c, &p.r, false)
			if c.OnResult != nil {
				c.OnResult(p.in, &p.r)
			}
			if keep {
				out = append(out, a)
			}
			for i := range p.r.More {
				if c.Target.Done() {
					break
				}
				if a, keep := admit(c, &p.r.More[i], true); keep {
					out = append(out, a)
				}
			}
			if c.Target.Done() {
				r.targetMet = true
				r.stop()
			}
			if r.gaveUp = c.Target.Unreachable(); r.gaveUp != nil {
				// The run ends as if its target were met, writing
				// what it admitted, and then reports the error.
				r.targetMet = true
				r.stop()
			}
		}
		// In messages of at most a chunk: one result may let a window's
		// worth of pending ones through, and the writer's queue holds
		// at most a thousand families only if no message is bigger.
		for len(out) > 0 {
			n := min(len(out), c.Chunk)
			select {
			case r.toWriter <- out[:n:n]:
			case <-r.gctx.Done():
				return r.gctx.Err()
			}
			out = out[n:]
		}
	}
	return nil
}

// write stores the admitted families (see writeBatches).
func (r *run[In, Out]) write() error {
	setRole("writer")
	return writeBatches(r.gctx, r.c, r.toWriter)
}

// setRole labels the calling goroutine with its part in the pipeline, so
// that a CPU profile tells the workers' time from the rest
// (go tool pprof -tags, or -tagfocus role=writer): the scaling from one
// worker to two depends on how much the rest costs.
func setRole(role string) {
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("role", role)))
}

// busy is what one worker is doing, for the watchdog.
type busy[In, Out any] struct {
	cancel    context.CancelFunc // stops the worker's work
	mu        sync.Mutex
	since     time.Time // zero when idle
	j         job[In]
	rest      []job[In]       // the items of j's chunk after j
	out       []done[In, Out] // the results of j's chunk before j
	warned    bool
	abandoned bool // the watchdog gave up on the item
}

func (b *busy[In, Out]) start(j job[In], rest []job[In], out []done[In, Out]) {
	b.mu.Lock()
	b.since, b.j, b.rest, b.out, b.warned = time.Now(), j, rest, out, false
	b.mu.Unlock()
}

// stop marks the worker idle and reports whether the watchdog gave up on
// its item meanwhile.
func (b *busy[In, Out]) stop() (abandoned bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.since, b.j, b.rest, b.out = time.Time{}, job[In]{}, nil, nil
	return b.abandoned
}

// watch logs, once per item, each item that has run longer than
// c.SlowItem, and calls giveUp with a copy of the slot of an item that
// has run longer than c.ItemTimeout, until done closes.
func watch[In, Out any](c Config[In, Out], slots []*busy[In, Out], done <-chan struct{}, giveUp func(w int, b *busy[In, Out])) {
	tick := time.NewTicker(max(min(c.SlowItem, c.ItemTimeout)/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		for w, b := range slots {
			b.mu.Lock()
			ran := time.Since(b.since)
			switch {
			case b.since.IsZero() || b.abandoned:
			case ran > c.ItemTimeout:
				b.abandoned = true
				taken := &busy[In, Out]{j: b.j, rest: b.rest, out: b.out}
				b.mu.Unlock()
				c.Log.Error("item still running; given up, and its goroutine left to finish or spin", append(c.Describe(taken.j.in), "running", ran.Round(time.Second))...)
				giveUp(w, taken)
				continue
			case ran > c.SlowItem && !b.warned:
				b.warned = true
				c.Log.Warn("item still running; the run waits for it", append(c.Describe(b.j.in), "running", ran.Round(time.Second))...)
			}
			b.mu.Unlock()
		}
	}
}

// safeDo runs one item, turning a panic into a Failed result that is
// logged with the item's description. After a panic the worker's state is
// replaced, since the panic may have left it inconsistent.
func safeDo[In, Out any](ctx context.Context, work *Work[In, Out], c Config[In, Out], in In) (r Result[Out]) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("panic: %v", p)
			c.Log.Error("item panicked; "+c.Dropped, append(c.Describe(in), "err", err, "stack", string(debug.Stack()))...)
			r = Result[Out]{Reason: Failed, Err: err}
			*work = c.NewWorker()
		}
	}()
	r = (*work)(ctx, in)
	if r.Reason == Failed && ctx.Err() == nil { // else the result is dropped
		c.Log.Error("item failed; "+c.Dropped, append(c.Describe(in), "err", r.Err)...)
	}
	return r
}

// admit decides, in item order, what becomes of a finished item, and
// counts it; more is a further family of the item before (Result.More),
// which counts as a family but not as an item.
func admit[In, Out any](c Config[In, Out], r *Result[Out], more bool) (admitted[Out], bool) {
	if !more {
		c.Stats.Items.Add(1)
		switch r.Reason {
		case Kept, OffLevel:
			c.Target.Yielded(r.Level)
		default:
			c.Target.Yielded(0)
		}
	}
	if r.Reason == Kept {
		switch {
		case c.Seen.Contains(r.Hash):
			r.Reason = Duplicate
		case !c.Target.Wants(r.Level):
			r.Reason = OffLevel
		}
	}
	switch r.Reason {
	case Kept:
		c.Seen.Add(r.Hash)
		c.Target.Take(r.Level)
		if _, ok := c.Resumed[r.Hash]; ok {
			c.Stats.Resumed.Add(1)
			return admitted[Out]{}, false
		}
		c.Stats.Admitted.Add(1)
		return admitted[Out]{r.Value, r.Level, max(r.Puzzles, 1), false}, true
	case Duplicate:
		c.Stats.Duplicates.Add(1)
		c.Target.Duplicate()
		if c.KeepDuplicates && r.Puzzles > 0 {
			return admitted[Out]{r.Value, r.Level, r.Puzzles, true}, true
		}
	case OffLevel:
		c.Stats.OffLevel.Add(1)
	case OffGivens:
		c.Stats.OffGivens.Add(1)
	case OffTarget:
		c.Stats.OffTarget.Add(1)
	case Invalid:
		c.Stats.Invalid.Add(1)
	case Failed:
		c.Stats.Failed.Add(1)
	}
	return admitted[Out]{}, false
}

// writeBatches batches admitted families by size and time into store
// transactions, runs c.Finish alongside the workers' last families, and
// flushes the last batch when in closes.
//
// A batch is written while the next one is gathered: a write takes tens
// of milliseconds, in which many workers fill the queue (a thousand
// families) many times over, and they would all wait for the write to
// end. At most one write runs at a time, and a full batch waits for it.
//
// Finish starts only if the writer has spent less than half the run
// writing, after it writes what it holds. While Finish runs the writer
// writes nothing: it takes families while it holds less than a full
// batch, so that the workers go on rather than wait on a full queue, and
// writes them when Finish returns. From then on a batch is a quarter the
// size, so that the batch left after the last family is small.
func writeBatches[In, Out any](ctx context.Context, c Config[In, Out], in <-chan []admitted[Out]) error {
	batch := make([]admitted[Out], 0, c.BatchFamilies)
	puzzles := 0
	maxFamilies, maxPuzzles := c.BatchFamilies, c.BatchPuzzles
	full := func() bool { return len(batch) >= maxFamilies || puzzles >= maxPuzzles }
	begin, writing := time.Now(), time.Duration(0) // writing: time spent in c.Write

	// The write in flight, if any: the batch it holds and the channel
	// its result comes on. spare is the other batch's buffer.
	type result struct {
		w    Written
		err  error
		took time.Duration
	}
	var (
		inFlight []admitted[Out]
		written  chan result
		spare    = make([]admitted[Out], 0, c.BatchFamilies)
		vals     = [2][]Out{make([]Out, 0, c.BatchFamilies), make([]Out, 0, c.BatchFamilies)}
		turn     int // which of vals the next write uses
	)
	// Every return waits for the write in flight: the caller closes the
	// store after this returns.
	defer func() {
		if written != nil {
			<-written
		}
	}()
	// settled counts what the write in flight stored, given its result.
	settled := func(res result) error {
		written = nil
		return c.tally(inFlight, res.w, res.err, res.took, &writing, &spare)
	}
	// settle waits for the write in flight and counts what it stored.
	settle := func() error {
		if written == nil {
			return nil
		}
		return settled(<-written)
	}
	// flush starts writing the batch held, once the write before it is
	// done.
	flush := func() error {
		if err := settle(); err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		v := vals[turn][:0]
		for _, a := range batch {
			v = append(v, a.v)
		}
		vals[turn], turn = v, 1-turn
		inFlight, batch, spare, puzzles = batch, spare, nil, 0
		done := make(chan result, 1)
		written = done
		go func() {
			t0 := time.Now()
			w, err := c.Write(ctx, v)
			done <- result{w, err, time.Since(t0)}
		}()
		return nil
	}
	// drain writes the batch held and waits for it.
	drain := func() error {
		if err := flush(); err != nil {
			return err
		}
		return settle()
	}

	// finishing is not nil while c.Finish runs; no batch is written
	// meanwhile, since the store is busy with it.
	var finishing chan error
	received, started := 0, c.Finish == nil
	// failed ends the run when c.Finish failed, after writing the batch
	// held meanwhile: those families do not need what Finish did, and a
	// resumed run would have to make them again.
	failed := func(err error) error {
		if ferr := drain(); ferr != nil {
			return errors.Join(err, ferr)
		}
		return err
	}
	wait := func() error {
		if finishing == nil {
			return nil
		}
		err := <-finishing
		finishing = nil
		if err != nil {
			return failed(err)
		}
		return nil
	}
	tick := time.NewTicker(c.FlushEvery)
	defer tick.Stop()
	for {
		recv := in
		if (finishing != nil || written != nil) && full() {
			// Hold one whole batch at most besides the one being
			// written; then the queue fills and the workers wait. The
			// bounds are quartered only once Finish returns, since
			// holding a quarter batch would leave the workers waiting
			// for most of the build.
			recv = nil
		}
		select {
		case as, ok := <-recv:
			if !ok {
				if err := wait(); err != nil {
					return err
				}
				return drain()
			}
			for _, a := range as {
				batch = append(batch, a)
				puzzles += a.puzzles
				if !a.dup {
					received++
				}
				if finishing == nil && written == nil && full() {
					if err := flush(); err != nil {
						return err
					}
				}
			}
			// Only a writer that keeps up starts early, one that spent
			// less than half the run writing: one that is behind the
			// workers (many variants a family) would write its backlog
			// into the built indexes row by row, at twice a bulk row's
			// cost or more, and gain no overlap, since the workers wait
			// for it anyway. The choice is made once.
			if !started && received >= c.FinishAfter {
				started = true
				if err := settle(); err != nil {
					return err
				}
				if writing < time.Since(begin)/2 {
					// What the writer holds goes in first, in bulk: held
					// through Finish, it would go into the indexes Finish
					// built, row by row, at several times the cost.
					if err := drain(); err != nil {
						return err
					}
					done := make(chan error, 1)
					go func() { done <- c.Finish(ctx) }()
					finishing = done
				}
			}
		case res := <-written:
			if err := settled(res); err != nil {
				return err
			}
			if finishing == nil && full() {
				if err := flush(); err != nil {
					return err
				}
			}
		case err := <-finishing:
			finishing = nil
			if err != nil {
				return failed(err)
			}
			// From here to the end of the run a batch is a quarter the
			// size, so that the batch left after the last family is small.
			maxFamilies, maxPuzzles = max(1, maxFamilies/4), max(1, maxPuzzles/4)
			if full() {
				if err := flush(); err != nil {
					return err
				}
			}
		case <-tick.C:
			if finishing == nil && written == nil {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
}

// tally counts what a write of batch stored (w, or its error err, after
// took), adds took to *writing, and hands the emptied batch back as
// *spare for the next one to fill.
func (c Config[In, Out]) tally(batch []admitted[Out], w Written, err error, took time.Duration, writing *time.Duration, spare *[]admitted[Out]) error {
	*writing += took
	if err != nil {
		return fmt.Errorf("write %d families: %w", len(batch), err)
	}
	// The store says what it took: another process writing the same
	// families, or filling a level's cap, at the same moment makes
	// it less than the batch.
	known := 0
	for _, a := range batch {
		if a.dup {
			known++
		}
	}
	if extra := w.DupFamilies - known; extra > 0 {
		c.Stats.Duplicates.Add(int64(extra))
	}
	if w.OverCap > 0 {
		// Admitted for what the bank lacked when the run began:
		// another run on the bank filled the quota first.
		c.Stats.OverQuota.Add(int64(w.OverCap))
		c.Log.Info("families left out over a quota: the bank reached it before they were written", "families", w.OverCap)
	}
	c.Stats.Families.Add(int64(w.Families))
	c.Stats.Puzzles.Add(int64(w.Puzzles))
	c.Stats.DupPuzzles.Add(int64(w.DupPuzzles))
	for l, n := range w.Levels {
		c.Stats.levels[l].Add(int64(n))
	}
	clear(batch) // let the written values go
	*spare = batch[:0]
	return nil
}
