package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sudokubank/internal/cli"
	"sudokubank/internal/cputime"
	"sudokubank/server"
	"sudokubank/store"
)

const usage = `Usage: bankload (-url http://HOST:PORT | -db puzzles.db) [-path P] [-c N] [-d D] [-n N]
                [-every D] [-pid N] [-max-inflight N] [-timeout D]

Bankload sends GET requests for -path from -c clients at once, each
sending its next request when its last one is answered, for -d (or until
-n requests in all), then reports the requests a second, the latency
percentiles and the errors: any answer but 200, or no answer. It exits 1
when any request failed.

With -url it loads a running bankserve; -pid, that server's process ID,
adds its resident memory (Linux). With -db it serves the bank itself, as
bankserve does, on a loopback port of its own, and reports its own
memory: the server's and the clients' together. Only loopback addresses
are for load: point -url at no machine but your own.

Examples:
  bankload -db puzzles.db -c 32 -d 60s
  bankload -url http://127.0.0.1:8080 -pid 4242 -c 32 -d 600s -every 30s
  bankload -db puzzles.db -path '/api/v1/puzzles?level=easy&limit=10' -c 8 -d 5s
`

// DefaultPath is the request bankload sends unless told otherwise: a
// random evil puzzle, what an app asks for most.
const DefaultPath = "/api/v1/puzzles/random?level=evil"

// Run runs bankload with the command-line arguments args (without the
// program name), printing the report to stdout and progress to stderr.
// Its error, if any, is for the caller to print; cli.ExitCode maps it to
// the exit status.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return cli.RunParsed(args, stdout, parseArgs, func(c config) error { return c.run(ctx, stdout, stderr) })
}

// config is what the command line asks for.
type config struct {
	url, db, path     string
	clients, requests int
	inflight, pid     int
	duration, every   time.Duration
	timeout           time.Duration
}

// parseArgs reads and checks the command line; for -h and -version it
// prints to stdout and returns flag.ErrHelp.
func parseArgs(args []string, stdout io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("bankload", flag.ContinueOnError)
	fs.StringVar(&c.url, "url", "", "load the bankserve at this base `URL`, such as http://127.0.0.1:8080")
	fs.StringVar(&c.db, "db", "", "serve this bank `file` in this process and load it")
	fs.StringVar(&c.path, "path", DefaultPath, "the `request` to send: a path and query")
	fs.IntVar(&c.clients, "c", 32, "`clients` at once")
	fs.DurationVar(&c.duration, "d", 10*time.Second, "how long to send requests")
	fs.IntVar(&c.requests, "n", 0, "stop after `N` requests in all; 0 sends until -d is over")
	fs.DurationVar(&c.every, "every", 0, "print a progress line to stderr at this `interval` (for a soak); 0 prints none")
	fs.IntVar(&c.pid, "pid", 0, "with -url, report the resident memory of the server's process `ID`")
	fs.IntVar(&c.inflight, "max-inflight", server.DefaultMaxInFlight, "with -db, the server's -max-inflight `N`")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "a request not answered in this `time` fails")
	if err := cli.ParseFlags(fs, usage, args, stdout); err != nil {
		return c, err
	}
	bad := func(format string, a ...any) error { return cli.UsageError{Err: fmt.Errorf(format, a...)} }
	switch {
	case fs.NArg() > 0:
		return c, bad("unexpected argument %q (see -h)", fs.Arg(0))
	case (c.url == "") == (c.db == ""):
		return c, bad("give either -url or -db")
	case c.clients < 1:
		return c, bad("-c %d: want 1 or more", c.clients)
	case c.duration <= 0:
		return c, bad("-d %s: want a duration above 0, such as 10s", c.duration)
	case c.requests < 0:
		return c, bad("-n %d: want 0 or more", c.requests)
	case c.every < 0:
		return c, bad("-every %s: want 0 or more", c.every)
	case c.timeout <= 0:
		return c, bad("-timeout %s: want a duration above 0", c.timeout)
	case c.inflight < 1:
		return c, bad("-max-inflight %d: want 1 or more", c.inflight)
	case c.pid != 0 && c.db != "":
		return c, bad("-pid is for -url; with -db bankload reports its own memory")
	case c.pid < 0:
		return c, bad("-pid %d: want a process ID above 0", c.pid)
	case !strings.HasPrefix(c.path, "/"):
		return c, bad("-path %q: want a path from /, such as %s", c.path, DefaultPath)
	}
	if c.url != "" {
		u, err := url.Parse(c.url)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return c, bad("-url %q: want a base URL such as http://127.0.0.1:8080", c.url)
		}
		c.url = strings.TrimSuffix(c.url, "/")
	}
	return c, nil
}

// run serves the bank when asked, sends the load and reports it.
func (c config) run(ctx context.Context, stdout, stderr io.Writer) error {
	base, pid := c.url, c.pid
	if pid > 0 {
		// Up front, not as "memory unknown" once the load has run; here
		// and not in parseArgs, which judges only what the line says.
		if err := checkPid(pid); err != nil {
			return err
		}
	}
	if c.db != "" {
		addr, stop, err := c.serve(ctx)
		if err != nil {
			return err
		}
		defer stop()
		base, pid = "http://"+addr, os.Getpid()
	}
	l := &loader{
		url:     base + c.path,
		clients: c.clients,
		limit:   int64(c.requests),
		client: &http.Client{
			Timeout: c.timeout,
			Transport: &http.Transport{
				MaxIdleConns:        c.clients,
				MaxIdleConnsPerHost: c.clients,
				IdleConnTimeout:     time.Minute,
			},
		},
	}
	defer l.client.CloseIdleConnections()
	if c.url != "" {
		// A server that is not there fails every request at once: the
		// load would report thousands of failures a second as its rate.
		if err := probe(ctx, l.client, c.url); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "GET %s: %d clients for %s\n", l.url, c.clients, c.duration)
	start, cpu := time.Now(), cputime.Process()
	runCtx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	stopProgress := l.progress(runCtx, stderr, c.every, pid)
	hist, errs, first := l.run(runCtx)
	stopProgress()
	elapsed := time.Since(start)
	c.report(stdout, hist, errs, first, elapsed, cputime.Process()-cpu, pid)
	if ctx.Err() != nil {
		return cli.ErrInterrupted
	}
	if errs > 0 {
		return fmt.Errorf("%d of %d requests failed; the first: %v", errs, hist.n, first)
	}
	if hist.n == 0 {
		return errors.New("no request was answered")
	}
	return nil
}

// probe sends one request to the server at base, and fails if none
// answers, with the reason alone ("connection refused", "no such host"),
// not the request's wording around it. Any answer, whatever its status,
// will do: the load counts statuses.
func probe(ctx context.Context, client *http.Client, base string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return cli.ErrInterrupted
		}
		return fmt.Errorf("-url %s: no server answers: %w", base, cli.NetReason(err))
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// report prints the figures of a run.
func (c config) report(w io.Writer, h *histogram, errs int64, first error, elapsed, cpu time.Duration, pid int) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Fprintf(w, "requests  %d in %.1f s, %d errors\n", h.n, elapsed.Seconds(), errs)
	fmt.Fprintf(w, "rate      %.1f requests/s\n", float64(h.n)/elapsed.Seconds())
	fmt.Fprintf(w, "latency   p50 %s, p90 %s, p99 %s, max %s\n", ms(h.quantile(0.50)), ms(h.quantile(0.90)), ms(h.quantile(0.99)), ms(h.max))
	if first != nil {
		fmt.Fprintf(w, "error     %v\n", first)
	}
	if c.db != "" {
		fmt.Fprintf(w, "cpu       %.2f s (%.2f cores), server and clients\n", cpu.Seconds(), cpu.Seconds()/elapsed.Seconds())
	}
	if pid == 0 {
		return
	}
	if m, err := readMemory(pid); err == nil {
		whose := fmt.Sprintf("process %d", pid)
		if c.db != "" {
			whose += ", server and clients"
		}
		fmt.Fprintf(w, "memory    rss %s, peak %s (%s)\n", mib(m.rss), mib(m.peak), whose)
	} else {
		fmt.Fprintf(w, "memory    unknown: %v\n", err)
	}
}

// serve serves the bank c.db on a loopback port, as bankserve does, and
// returns its address and the func that stops it.
func (c config) serve(ctx context.Context) (string, func(), error) {
	if _, err := os.Stat(c.db); err != nil {
		return "", nil, fmt.Errorf("open bank %s: %w", c.db, cli.Reason(err))
	}
	bank, err := store.OpenReadOnly(ctx, c.db)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		bank.Close()
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	// The access log is formatted as bankserve formats it, and dropped.
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := server.New(bank, server.Options{Log: log, MaxInFlight: c.inflight})
	sctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Serve(sctx, ln, h, log) }()
	return ln.Addr().String(), func() {
		cancel()
		<-done
		bank.Close()
	}, nil
}

// loader sends the load: clients goroutines, each with its own
// histogram, so that they share nothing but two counters.
type loader struct {
	url     string
	clients int
	limit   int64 // requests in all; 0 is no limit
	client  *http.Client

	sent, done, failed atomic.Int64
}

// run sends requests until ctx is done or the limit is reached, and
// returns their latencies, the number that failed and the first error.
// A request that ctx cuts off is not counted.
func (l *loader) run(ctx context.Context) (*histogram, int64, error) {
	hists := make([]histogram, l.clients)
	firsts := make([]error, l.clients)
	var wg sync.WaitGroup
	for i := range l.clients {
		wg.Go(func() { firsts[i] = l.client1(ctx, &hists[i]) })
	}
	wg.Wait()
	var all histogram
	var first error
	for i := range hists {
		all.merge(&hists[i])
		first = cmpFirst(first, firsts[i])
	}
	return &all, l.failed.Load(), first
}

func cmpFirst(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// client1 is one client: it sends a request, waits for the whole answer
// and sends the next, and returns its first error.
func (l *loader) client1(ctx context.Context, h *histogram) error {
	var first error
	for ctx.Err() == nil {
		if l.limit > 0 && l.sent.Add(1) > l.limit {
			break
		}
		start := time.Now()
		err := l.get(ctx)
		if err != nil && ctx.Err() != nil {
			break // the run ended during the request
		}
		h.add(time.Since(start))
		l.done.Add(1)
		if err != nil {
			l.failed.Add(1)
			first = cmpFirst(first, err)
		}
	}
	return first
}

// get sends one request and reads its answer whole.
func (l *loader) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return err
}

// progress prints, every interval until stopped, the requests a second
// since the last line, the errors so far and the memory of process pid
// (0: none), and returns the func that stops it.
func (l *loader) progress(ctx context.Context, w io.Writer, every time.Duration, pid int) func() {
	if every <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		start, last, lastN := time.Now(), time.Now(), int64(0)
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				n := l.done.Load()
				line := fmt.Sprintf("%6.0fs  %8.1f requests/s  %d errors", now.Sub(start).Seconds(),
					float64(n-lastN)/now.Sub(last).Seconds(), l.failed.Load())
				if m, err := readMemory(pid); pid != 0 && err == nil {
					line += fmt.Sprintf("  rss %s  peak %s", mib(m.rss), mib(m.peak))
				}
				fmt.Fprintln(w, line)
				last, lastN = now, n
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
