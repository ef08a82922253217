package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"sudokubank/internal/cli"
	"sudokubank/server"
	"sudokubank/store"
)

const usage = `Usage: bankserve [-db puzzles.db] [-addr 127.0.0.1:8080] [-max-inflight N] [-cors ORIGIN]

Bankserve serves the bank read-only over HTTP until SIGINT or SIGTERM,
then lets the requests in flight finish. It never creates or migrates a
bank, and keeps serving while bankgen adds to it. Every request is
logged on stderr. Endpoints (all GET, JSON unless said):

  /healthz
  /api/v1/stats?size=N           the bank's counts: families, puzzles,
                                 levels, buckets, techniques; over every
                                 size, each size's in "sizes" when the
                                 bank holds one other than 9x9; with
                                 size, those of N x N grids alone
  /api/v1/puzzles?FILTERS&limit=N&cursor=C&solution=1
                                 a page (limit at most 1000, default 100),
                                 "next", the cursor to go on from (also on
                                 the last page, for puzzles added later),
                                 and "more", whether a page follows. A
                                 puzzle's "number" is its place in the
                                 whole list, as in bankquery list: with
                                 limit=50, a full first page is followed
                                 by 51. A page reads at most 32768 IDs
                                 past its cursor, so a filter few puzzles
                                 match may give a short page, even an
                                 empty one, with "more": go on while
                                 "more" is true. A filter of one level
                                 and one number of givens (level=3&
                                 givens=24), or none, reads from an index
                                 and always gives full pages. A cursor
                                 is for the filter it came with: another
                                 filter's, or an older server's, is
                                 counted afresh where the filter reads
                                 from an index (level, givens, rating,
                                 size) and 32768 matches or fewer lie
                                 up to it, and refused with 400 past
                                 them or where it filters by family
                                 (score, technique, hardest, symmetry,
                                 minimal, source)
  /api/v1/puzzles/random?FILTERS&n=N&seed=S&solution=1
                                 a uniform random pick (n at most 100)
  /api/v1/puzzles/ID?solution=1  one puzzle, without "number" (it is
                                 in no list)
  /api/v1/puzzles/ID/hints       its hint path, step by step
  /api/v1/daily/YYYY-MM-DD?level=L&size=N&solution=1
                                 the puzzle of the day, of any size
                                 the bank holds unless size is given,
                                 never one reserved to a client; the
                                 same on every server, and fixed once
                                 the day (UTC) has begun: families
                                 added since are not candidates. Cached
                                 until the day begins for a day to come,
                                 a day once it has begun; a date before
                                 the bank held puzzles gets a pick that
                                 changes as the bank grows, sent with
                                 no-cache. The puzzle has no "number"
  /api/v1/export?FILTERS&format=csv|json|sdm|pdf&count=N&seed=S
                                 a file of puzzles (count at most 1000):
                                 the first by ID, or with seed a random
                                 sample. The first by ID of a filter
                                 other than one level and one number of
                                 givens are looked for in the first
                                 32768 IDs, as a page's: if fewer than
                                 count are there, the answer is 400;
                                 page through /api/v1/puzzles instead
                                 and export what it gives with ids=
  /api/v1/export?ids=ID,ID,...&format=...
                                 the puzzles picked by ID, in that order
  /                              the web page (HTML): browse the bank,
  /puzzles/ID                    play a puzzle with its hints, print

FILTERS are bankquery's: level, rating, givens, score, technique,
hardest, symmetry, minimal, source, size.

A puzzle, its hints, the day's puzzle and the stats carry an ETag: a
request with If-None-Match gets 304 while the answer is the same.

A puzzle is an object of bankquery list -format json, with hardest_name
added. Its "solution" and "solution_cells" are there only with
solution=1: without it the keys are left out, never "".

-cors ORIGIN lets web pages of ORIGIN (https://app.example.com, or *
for any) call /api/v1 from a browser: responses carry
Access-Control-Allow-Origin and preflight OPTIONS requests are answered.
ORIGIN is spelt as a browser sends it, which it must match byte for
byte: lower case, without the scheme's own port (:443, :80). A trailing
slash, as an address bar shows, is dropped; a path is refused. Without
-cors a browser lets only bankserve's own page read the API.

Errors are JSON, {"error": "..."}: 400 naming a bad parameter, 404, 405
for a method other than GET or HEAD, 503 past -max-inflight. SIGINT or
SIGTERM exits 0 once the requests in flight are answered.

Examples:
  bankserve -db puzzles.db
  bankserve -db puzzles.db -addr 127.0.0.1:9000 -max-inflight 32
  bankserve -db puzzles.db -cors https://app.example.com
`

// Run runs bankserve with the command-line arguments args (without the
// program name) until ctx is done, logging requests to stderr and
// telling stdout where it listens. Its error, if any, is for the caller
// to print; cli.ExitCode maps it to the exit status.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return cli.RunParsed(args, stdout, parseArgs, func(c config) error { return c.serve(ctx, stdout, stderr) })
}

// config is what the command line asks for.
type config struct {
	db, addr, cors string
	inflight       int
}

// parseArgs reads and checks the command line; for -h and -version it
// prints to stdout and returns flag.ErrHelp.
func parseArgs(args []string, stdout io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("bankserve", flag.ContinueOnError)
	fs.StringVar(&c.db, "db", "puzzles.db", "the bank `file` to serve")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "listen on this `host:port`; the default takes requests from this machine only")
	fs.IntVar(&c.inflight, "max-inflight", server.DefaultMaxInFlight, "serve at most `N` requests at once; more get 503")
	fs.StringVar(&c.cors, "cors", "", "let web pages of this `origin` (or *) call the API from a browser")
	if err := cli.ParseFlags(fs, usage, args, stdout); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, cli.UsageError{Err: fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(0))}
	case c.db == "":
		return c, cli.UsageError{Err: errors.New("-db: no bank named")}
	case c.inflight < 1:
		return c, cli.UsageError{Err: fmt.Errorf("-max-inflight %d: want 1 or more", c.inflight)}
	}
	if c.cors != "" {
		origin, err := server.ParseOrigin(c.cors)
		if err != nil {
			return c, cli.UsageError{Err: fmt.Errorf("-cors: %w", err)}
		}
		c.cors = origin
	}
	return c, checkAddr(c.addr)
}

// serve opens the bank and serves it until ctx is done.
func (c config) serve(ctx context.Context, stdout, stderr io.Writer) error {
	if _, err := os.Stat(c.db); err != nil {
		return fmt.Errorf("open bank %s: %w", c.db, cli.Reason(err))
	}
	bank, err := store.OpenReadOnly(ctx, c.db)
	if err != nil {
		return err
	}
	defer bank.Close()

	log := slog.New(slog.NewTextHandler(stderr, nil))
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", c.addr)
	if err != nil {
		return listenError(c.addr, err)
	}
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		log.Warn("listening beyond this machine: anyone who reaches the address reads the bank", "addr", ln.Addr().String())
	}
	fmt.Fprintf(stdout, "bankserve: serving %s on http://%s/\n", c.db, ln.Addr())
	h := server.New(bank, server.Options{Log: log, MaxInFlight: c.inflight, CORSOrigin: c.cors})
	if err := server.Serve(ctx, ln, h, log); err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// listenError is the error of a listen on -addr addr that failed: the
// address and the system's reason, without the listen's own wording
// ("listen tcp ...: bind: ..."), and what to do where that is plain.
func listenError(addr string, err error) error {
	err = cli.NetReason(err)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("-addr %s: %w: another process listens on the port; stop it or choose another port", addr, err)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return fmt.Errorf("-addr %s: %w: the host is no address of this machine", addr, err)
	case errors.Is(err, syscall.EACCES):
		return fmt.Errorf("-addr %s: %w: ports below 1024 need privileges; choose another port", addr, err)
	}
	return fmt.Errorf("-addr %s: %w", addr, err)
}

// checkAddr checks -addr: a host (possibly empty) and a port.
func checkAddr(addr string) error {
	bad := func(why string) error {
		return cli.UsageError{Err: fmt.Errorf("-addr %q: want host:port, such as 127.0.0.1:8080 (%s)", addr, why)}
	}
	if strings.Contains(addr, "://") {
		return bad("an address, not a URL: no scheme")
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			return bad(ae.Err)
		}
		return bad(err.Error())
	}
	n, err := strconv.Atoi(port)
	switch {
	case err != nil:
		return bad(fmt.Sprintf("port %q is not a number", port))
	case n < 0 || n > 65535:
		return bad(fmt.Sprintf("port %d is out of range: 0 to 65535", n))
	}
	return nil
}
