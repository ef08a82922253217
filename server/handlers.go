package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"sudokubank/internal/summary"

	"sudokubank/export"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
	"sudokubank/store"
)

// Cache-Control values: a puzzle by ID never changes; its hints change
// only with the grader; a day's puzzle, once fixed, only if its family
// is reserved to a client (dailyCache).
const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cacheHints      = "public, max-age=86400"
	cacheDailyFixed = "public, max-age=86400"
)

// serveError answers err: 400 for a bad parameter, 404 for a missing
// puzzle, 500 for anything else.
func (s *Server) serveError(w http.ResponseWriter, r *http.Request, err error) {
	var pe *paramError
	switch {
	case errors.As(err, &pe):
		writeError(w, http.StatusBadRequest, pe.Error())
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, err.Error())
	default:
		s.internalError(w, r, err)
	}
}

// unnumbered is puzzleObjects' first for objects without a number: a
// puzzle asked for by its ID, or the day's, has no place in a list.
const unnumbered = 0

// numberOne starts export's JSON object of a puzzle numbered 1.
var numberOne = []byte(`{"number":1,`)

// puzzleObjects returns rows as the JSON objects bankquery list -format
// json prints, numbered from first, with their solutions only when asked
// (else without the keys solution and solution_cells), and one key more:
// hardest_name, the display name of the hardest technique, which a page
// shows where bankquery's lists show the slug. With first unnumbered
// (one row) the object has no key number.
func puzzleObjects(ctx context.Context, rows []store.Row, first int, solution bool) ([]json.RawMessage, error) {
	numbered := first != unnumbered
	if !numbered {
		if len(rows) != 1 {
			return nil, fmt.Errorf("%d puzzles without numbers: only one goes unnumbered", len(rows))
		}
		first = 1
	}
	items := export.FromRows(rows, first)
	if !solution {
		for i := range items {
			items[i].Solution = ""
		}
	}
	var b bytes.Buffer
	if err := export.Write(ctx, &b, export.JSON, items, export.Options{}); err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(rows))
	for line := range bytes.Lines(b.Bytes()) {
		obj := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("}"))
		if !numbered {
			rest, ok := bytes.CutPrefix(obj, numberOne)
			if !ok {
				return nil, fmt.Errorf("puzzle %d: its JSON does not start with its number: %.40s", rows[0].ID, obj)
			}
			obj = append([]byte{'{'}, rest...)
		}
		name, err := techniqueName(rows[len(out)].Hardest)
		if err != nil {
			return nil, err
		}
		obj = append(append(append(obj[:len(obj):len(obj)], `,"hardest_name":`...), name...), '}')
		out = append(out, json.RawMessage(obj))
	}
	return out, nil
}

// techniqueNames holds each technique's display name as a JSON string,
// by slug.
var techniqueNames = func() map[string][]byte {
	m := map[string][]byte{}
	for _, t := range grade.Techniques() {
		m[t.Slug()], _ = json.Marshal(t.String())
	}
	return m
}()

// techniqueName returns the display name of the technique slug as a
// JSON string; a slug the grader does not know (a bank written by
// another version) is its own name.
func techniqueName(slug string) ([]byte, error) {
	if b, ok := techniqueNames[slug]; ok {
		return b, nil
	}
	return json.Marshal(slug)
}

// collect runs a query and returns its rows.
func (s *Server) collect(ctx context.Context, f store.Filter, o store.QueryOptions) ([]store.Row, error) {
	var rows []store.Row
	err := s.db.Query(ctx, f, o, func(r store.Row) error {
		rows = append(rows, r)
		return nil
	})
	return rows, err
}

// stats answers the bank's counts: over every size, with each size's in
// "sizes" where the bank holds a size other than 9x9; with size=N, those
// of N x N grids alone at the top, so that an app of one size reads its
// levels and buckets without another size's puzzles in them.
func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	p := newParams(r, []string{"size"})
	size := p.filter().Size
	if p.err != nil {
		s.serveError(w, r, p.err)
		return
	}
	st, err := s.db.Stats(r.Context())
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	var out any = summary.Of(st)
	if size != 0 {
		out = summary.OfSize(st, size)
	}
	// The counts change as the bank grows: a client asks each time, and
	// gets 304 while they are the same.
	writeTagged(w, r, out, "no-cache")
}

// pageJSON is a page of puzzles and the cursor of the next page. Next
// is there on the last page too (then More is false), so that a client
// that comes back once the bank has grown gets the puzzles added since,
// and nothing twice: IDs only rise. A page holds at most the limit, and
// fewer, even none, where its window of IDs (Options.ScanWindow) ends
// first; More says whether to go on.
type pageJSON struct {
	Puzzles []json.RawMessage `json:"puzzles"`
	Next    string            `json:"next"`
	More    bool              `json:"more"`
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	p := newParams(r, filterParams, []string{"limit", "cursor", "solution"})
	f, limit, cur, solution := p.filter(), p.int("limit", DefaultLimit, 1, MaxLimit), p.cursor(), p.bool("solution")
	if p.err != nil {
		s.serveError(w, r, p.err)
		return
	}
	page, err := s.page(r.Context(), f, filterPrint(p.q), cur, limit, solution)
	if err != nil {
		s.serveError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// page returns the page of at most limit puzzles after the cursor cur,
// of the filter f whose fingerprint is fp, numbered on from the
// cursor's place: the first puzzle of the bank that matches is 1,
// whatever page it is on, as in bankquery list.
func (s *Server) page(ctx context.Context, f store.Filter, fp string, cur cursor, limit int, solution bool) (pageJSON, error) {
	// The matches before the page: the cursor's count, unless it has
	// none for this filter (an older server's, or another filter's).
	// Counting them afresh reads every match up to the cursor, which an
	// index holds for a filter on the puzzles' own fields; for one on
	// their families it would read each puzzle and its family up to the
	// cursor, the whole bank for a cursor near its end, and a client can
	// write such a cursor: refused. The index count is bounded too, to
	// as many entries as a window has IDs (Options.ScanWindow): an entry
	// counted costs about what a row of a window checked does (0.3 and
	// 0.2 us on a bank of 300,000 puzzles).
	before := cur.N
	if cur.ID > 0 && (!cur.counted || cur.Filter != fp) {
		refuse := func(why string, args ...any) error {
			return badParam("cursor", encodeCursor(cur),
				"given for other filter parameters or by an older server, so it holds no count of this filter's matches, and %s; "+
					"go on with the next of a page of these parameters, or start again without cursor", fmt.Sprintf(why, args...))
		}
		if !f.CountsFromIndex() {
			return pageJSON{}, refuse("counting them up to ID %d would read every puzzle's family up to it", cur.ID)
		}
		most := s.window
		var err error
		if before, err = s.db.CountUpToAtMost(ctx, f, cur.ID, most); err != nil {
			return pageJSON{}, err
		}
		if before > most {
			return pageJSON{}, refuse("more than %d of them lie up to ID %d, more than one request counts", most, cur.ID)
		}
	}
	// The window ends at the last ID already written, so that a puzzle
	// a writer commits later comes after it, never inside it unread.
	last, err := s.db.LastID(ctx)
	if err != nil {
		return pageJSON{}, err
	}
	// A filter the store checks row by row reads a window of IDs; one
	// it answers from an index reads its matches alone and needs none,
	// so that its pages are full however rare its puzzles.
	upTo := last
	if !f.ReadsOnlyMatchesByID() {
		upTo = min(cur.ID+s.window, last)
	}
	var rows []store.Row
	if upTo > cur.ID {
		// One row more than the page tells whether another page follows.
		o := store.QueryOptions{Limit: limit + 1, Order: store.OrderID, AfterID: cur.ID, UpToID: upTo}
		if rows, err = s.collect(ctx, f, o); err != nil {
			return pageJSON{}, err
		}
	}
	var page pageJSON
	end := max(upTo, cur.ID) // every match up to end is read
	if page.More = len(rows) > limit; page.More {
		rows = rows[:limit]
		end = rows[limit-1].ID
	} else {
		page.More = end < last
	}
	if end > 0 {
		page.Next = encodeCursor(countedCursor(end, before+int64(len(rows)), fp))
	}
	if page.Puzzles, err = puzzleObjects(ctx, rows, int(before)+1, solution); err != nil {
		return pageJSON{}, err
	}
	return page, nil
}

// randomJSON is a random pick and the seed that repeats it.
type randomJSON struct {
	Seed    uint64            `json:"seed"`
	Puzzles []json.RawMessage `json:"puzzles"`
}

func (s *Server) random(w http.ResponseWriter, r *http.Request) {
	p := newParams(r, filterParams, []string{"n", "seed", "solution"})
	f, n, solution, seed := p.filter(), p.int("n", 1, 1, MaxRandom), p.bool("solution"), p.seed()
	if p.err != nil {
		s.serveError(w, r, p.err)
		return
	}
	rows, err := s.collect(r.Context(), f, store.QueryOptions{Limit: n, Order: store.OrderRandom, Seed: seed})
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	objs, err := puzzleObjects(r.Context(), rows, 1, solution)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	writeBody(w, http.StatusOK, randomBody(seed, objs))
}

// randomBody returns the JSON of randomJSON{seed, objs}, as marshal
// writes it, without encoding the objects again: a random pick is the
// request an app sends most.
func randomBody(seed uint64, objs []json.RawMessage) []byte {
	n := 32
	for _, o := range objs {
		n += len(o) + 1
	}
	b := make([]byte, 0, n)
	b = strconv.AppendUint(append(b, `{"seed":`...), seed, 10)
	b = append(b, `,"puzzles":[`...)
	for i, o := range objs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, o...)
	}
	return append(b, "]}\n"...)
}

// puzzleID reads the {id} of the path.
func puzzleID(r *http.Request) (int64, error) {
	s := r.PathValue("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, badParam("id", s, "want a puzzle ID, a whole number from 1")
	}
	return id, nil
}

// row returns the puzzle the path names.
func (s *Server) row(r *http.Request) (store.Row, error) {
	id, err := puzzleID(r)
	if err != nil {
		return store.Row{}, err
	}
	row, err := s.db.Puzzle(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Row{}, fmt.Errorf("no puzzle with ID %d: %w", id, store.ErrNotFound)
	}
	return row, err
}

func (s *Server) puzzle(w http.ResponseWriter, r *http.Request) {
	q, err := query(r.URL, []string{"solution"})
	if err != nil {
		s.serveError(w, r, err)
		return
	}
	solution, err := boolParam(q, "solution")
	if err != nil {
		s.serveError(w, r, err)
		return
	}
	row, err := s.row(r)
	if err != nil {
		s.serveError(w, r, err)
		return
	}
	objs, err := puzzleObjects(r.Context(), []store.Row{row}, unnumbered, solution)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	writeTagged(w, r, objs[0], cacheImmutable)
}

// Hints are cells and digits as a person names them: rows and columns
// from 1, top left first.
type cellJSON struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

type digitJSON struct {
	Row   int `json:"row"`
	Col   int `json:"col"`
	Digit int `json:"digit"`
}

// stepJSON is one step of a hint path: the technique, its rating, the
// cells and digits of its pattern, what it concludes, and a sentence
// that says it.
type stepJSON struct {
	Technique    string      `json:"technique"`
	Name         string      `json:"name"`
	Rating       json.Number `json:"rating"` // export.RatingJSON: 2.0, as a puzzle's
	Cells        []cellJSON  `json:"cells"`
	Digits       []int       `json:"digits"`
	Placements   []digitJSON `json:"placements"`
	Eliminations []digitJSON `json:"eliminations"`
	Links        []linkJSON  `json:"links,omitempty"`
	Text         string      `json:"text"`
}

// nodeJSON is a candidate of a chain: the digit in a cell, on when the
// chain places it there, off when it removes it.
type nodeJSON struct {
	Row   int  `json:"row"`
	Col   int  `json:"col"`
	Digit int  `json:"digit"`
	On    bool `json:"on"`
}

// linkJSON is one link of a chain, in the chain's order: the "to" of a
// link is the "from" of the next. Strong links run from an off node to
// an on node, weak links from on to off.
type linkJSON struct {
	From   nodeJSON `json:"from"`
	To     nodeJSON `json:"to"`
	Strong bool     `json:"strong"`
}

// hintsJSON is a puzzle's hint path, graded afresh in its own
// orientation (the bank stores one solve per family).
type hintsJSON struct {
	ID         int64       `json:"id"`
	Puzzle     string      `json:"puzzle"`
	Rating     json.Number `json:"rating"` // export.RatingJSON: 2.0, as a puzzle's
	Unfinished bool        `json:"unfinished"`
	Steps      []stepJSON  `json:"steps"`
}

func (s *Server) hints(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r.URL); err != nil {
		s.serveError(w, r, err)
		return
	}
	row, err := s.row(r)
	if err != nil {
		s.serveError(w, r, err)
		return
	}
	out, err := hintsOf(r.Context(), row)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	writeTagged(w, r, out, cacheHints)
}

// hintsOf grades the puzzle of row again, in its own orientation: a 9x9
// puzzle with the 9x9 grader, as the bank grades it, another size with
// grade.SizedGrader. A 9x9 path is read as SizedSteps (grade.SizedPath)
// and its links as SizedLinks (grade.Grade.SizedLinks), so one function
// writes the steps of every size.
func hintsOf(ctx context.Context, row store.Row) (hintsJSON, error) {
	shape, ok := grid.ShapeOfCells(len(row.Puzzle))
	if !ok {
		return hintsJSON{}, fmt.Errorf("puzzle %d: %d cells make no grid", row.ID, len(row.Puzzle))
	}
	var er grade.Rating
	var steps []grade.SizedStep
	var links [][]grade.SizedLink // per step, the chain to draw
	var unfinished bool
	if shape == grid.Nine {
		p, err := solve.Parse(row.Puzzle)
		if err != nil {
			return hintsJSON{}, fmt.Errorf("puzzle %d: %w", row.ID, err)
		}
		g := grade.New()
		g.RecordLinks(true)
		gr, err := g.GradeContext(ctx, p)
		if err != nil {
			return hintsJSON{}, fmt.Errorf("grade puzzle %d: %w", row.ID, err)
		}
		er, steps, links, unfinished = gr.ER, grade.SizedPath(gr.Path), gr.SizedLinks(), gr.Unfinished
	} else {
		p, err := grid.ParseIn(shape, row.Puzzle)
		if err != nil {
			return hintsJSON{}, fmt.Errorf("puzzle %d: %w", row.ID, err)
		}
		g := grade.NewSized()
		g.RecordLinks(true)
		gr, err := g.GradeContext(ctx, p)
		if err != nil {
			return hintsJSON{}, fmt.Errorf("grade puzzle %d: %w", row.ID, err)
		}
		er, steps, links, unfinished = gr.ER, gr.Steps, gr.Links, gr.Unfinished
	}
	out := hintsJSON{ID: row.ID, Puzzle: row.Puzzle, Rating: export.RatingJSON(er.Float()), Unfinished: unfinished, Steps: make([]stepJSON, len(steps))}
	for i, st := range steps {
		var ls []grade.SizedLink
		if i < len(links) {
			ls = links[i]
		}
		out.Steps[i] = stepOf(st, ls, shape)
	}
	return out, nil
}

// stepOf returns a step of a grid of shape s, with the links of its
// chain, as data.
func stepOf(st grade.SizedStep, links []grade.SizedLink, s grid.Shape) stepJSON {
	out := stepJSON{
		Technique: st.Technique.Slug(), Name: st.Technique.String(), Rating: export.RatingJSON(st.Rating.Float()),
		Cells: []cellJSON{}, Digits: []int{}, Placements: []digitJSON{}, Eliminations: []digitJSON{},
		Text: st.Sentence(s),
	}
	cellOf := func(c uint16) cellJSON { return cellJSON{Row: s.Row(int(c)) + 1, Col: s.Col(int(c)) + 1} }
	for _, c := range st.Cells {
		out.Cells = append(out.Cells, cellOf(c))
	}
	for d := 1; d <= s.N; d++ {
		if st.Digits&(1<<d) != 0 {
			out.Digits = append(out.Digits, d)
		}
	}
	for _, p := range st.Placements {
		c := cellOf(p.Cell)
		out.Placements = append(out.Placements, digitJSON{Row: c.Row, Col: c.Col, Digit: int(p.Digit)})
	}
	for _, e := range st.Eliminations {
		c := cellOf(e.Cell)
		out.Eliminations = append(out.Eliminations, digitJSON{Row: c.Row, Col: c.Col, Digit: int(e.Digit)})
	}
	nodeOf := func(n grade.SizedChainNode) nodeJSON {
		c := cellOf(n.Cell)
		return nodeJSON{Row: c.Row, Col: c.Col, Digit: int(n.Digit), On: n.On}
	}
	for _, l := range links {
		out.Links = append(out.Links, linkJSON{From: nodeOf(l.From), To: nodeOf(l.To), Strong: l.Strong})
	}
	return out
}

// dailyJSON is the puzzle of a day.
type dailyJSON struct {
	Date   string          `json:"date"`
	Puzzle json.RawMessage `json:"puzzle"`
}

// dailySeed is the point of the puzzle of date for levels (store.DayPick):
// a fixed hash, so that every server on the same bank, after any
// restart, picks the same puzzle. The levels are parsed first, so "evil"
// and "5" agree. The size is not in the seed: it only narrows what the
// point picks from.
func dailySeed(date string, levels []int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "sudokubank daily %s levels %v", date, levels)
	return h.Sum64()
}

func (s *Server) daily(w http.ResponseWriter, r *http.Request) {
	// size lets an app of one grid size ask for a day's puzzle of its
	// size; without it the pick is from every size the bank holds.
	p := newParams(r, []string{"level", "size", "solution"})
	date := r.PathValue("date")
	day, err := time.Parse(time.DateOnly, date)
	if err != nil && p.err == nil {
		p.err = badParam("date", date, "want a date as YYYY-MM-DD")
	}
	f, solution := p.filter(), p.bool("solution")
	if p.err != nil {
		s.serveError(w, r, p.err)
		return
	}
	// A family reserved to a client is that client's alone: the day's
	// puzzle, which everyone sees, never comes from one.
	f.Unreserved = true
	row, err := s.db.DayPick(r.Context(), f, int64(dailySeed(date, f.Levels)), day)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no puzzle of the bank matches")
		return
	}
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	objs, err := puzzleObjects(r.Context(), []store.Row{row}, unnumbered, solution)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	fam, err := s.db.Family(r.Context(), row.FamilyID)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	writeTagged(w, r, dailyJSON{Date: date, Puzzle: objs[0]}, dailyCache(time.Now(), day, fam.CreatedAt))
}

// dailyCache returns the Cache-Control of the puzzle of the day that
// starts at day (UTC), picked at now from a family made at made. The
// candidates are the families made before the day starts (store.DayPick):
//   - before the day starts, a family added until then may become the
//     pick, so a cache keeps it until the day starts, no longer;
//   - once it has started, a pick made before it is fixed (it moves only
//     if its family is reserved to a client): a day's cache;
//   - a pick made on the day or later is one the store took because no
//     family near the day's point is older than the day (a date before
//     the bank held puzzles, or the day a bank was built): it changes as
//     the bank grows, so a cache asks again each time (no-cache, and the
//     ETag answers 304 while it stands).
func dailyCache(now, day, made time.Time) string {
	switch {
	case now.Before(day):
		return "public, max-age=" + strconv.FormatInt(int64(day.Sub(now)/time.Second), 10)
	case made.Before(day):
		return cacheDailyFixed
	default:
		return "no-cache"
	}
}

// exportTypes are the formats the export endpoint writes, with their
// media types.
var exportTypes = map[export.Format]string{
	export.CSV:  "text/csv; charset=utf-8",
	export.JSON: "application/x-ndjson",
	export.SDM:  "text/plain; charset=utf-8",
	export.PDF:  "application/pdf",
}

func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	p := newParams(r, filterParams, []string{"format", "count", "seed", "ids"})
	f := p.filter()
	if p.err != nil {
		s.serveError(w, r, p.err)
		return
	}
	name := p.q.Get("format")
	if name == "" {
		name = string(export.JSON)
	}
	format, err := export.ParseFormat(name)
	ctype, ok := exportTypes[format]
	if err != nil || !ok {
		s.serveError(w, r, badParam("format", name, "want csv, json, sdm or pdf"))
		return
	}
	if f.Size != 0 && f.Size != 9 && export.NineOnly(format) {
		s.serveError(w, r, badParam("size", p.q.Get("size"), "%s holds 9x9 puzzles only; export size %d as csv, json or pdf", format, f.Size))
		return
	}
	if format == export.PDF && f.Size != 0 {
		if err := (export.Options{}).PDF.ValidateSize(f.Size); err != nil {
			s.serveError(w, r, badParam("size", p.q.Get("size"), "%v", err))
			return
		}
	}
	var rows []store.Row
	if p.q.Has("ids") {
		rows, err = s.picked(r, p.q)
	} else {
		rows, err = s.exportRows(r.Context(), p, f)
	}
	if err != nil {
		s.serveError(w, r, err)
		return
	}
	if len(rows) == 0 && format == export.PDF {
		writeError(w, http.StatusNotFound, "no puzzle of the bank matches: a pdf needs one")
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=puzzles.%s", format))
	cw := &countWriter{w: w}
	err = export.Write(r.Context(), cw, format, export.FromRows(rows, 1), export.Options{})
	switch {
	case err == nil:
	case cw.n == 0:
		// export.Write checks every puzzle before it writes: the status
		// is not sent yet, and the client gets an error, not an empty
		// file.
		w.Header().Del("Content-Disposition")
		if errors.Is(err, export.ErrNineOnly) {
			// Without size the selection holds every size the bank has.
			err = badParam("format", name, "%v; add size=9 to take 9x9 puzzles only", err)
		}
		s.serveError(w, r, err)
	default:
		// The status is sent; a client sees a short body.
		s.logFailure(r, "export failed", err)
	}
}

// exportRows returns the puzzles an export of the filter f takes: the
// first count by ID, or with a seed a random sample. The first by ID of
// a filter the store checks row by row are looked for in the first
// window of IDs (Options.ScanWindow) alone, as a page's: where the
// window ends before count of them, with more of the bank after it, the
// export is refused, naming why, rather than cut short unsaid or read
// from the whole bank in one request.
func (s *Server) exportRows(ctx context.Context, p *params, f store.Filter) ([]store.Row, error) {
	o := store.QueryOptions{Limit: p.int("count", DefaultLimit, 1, MaxCount), Order: store.OrderID}
	if p.q.Has("seed") {
		o.Seed, o.Order = p.seed(), store.OrderRandom
	}
	if p.err != nil {
		return nil, p.err
	}
	var last int64
	if o.Order == store.OrderID && !f.ReadsOnlyMatchesByID() {
		var err error
		if last, err = s.db.LastID(ctx); err != nil {
			return nil, err
		}
		o.UpToID = min(s.window, last)
	}
	rows, err := s.collect(ctx, f, o)
	if err != nil {
		return nil, err
	}
	if o.UpToID > 0 && o.UpToID < last && len(rows) < o.Limit {
		fewer := ""
		if len(rows) > 0 {
			fewer = fmt.Sprintf("ask for count=%d or fewer, or ", len(rows))
		}
		return nil, badParam("count", strconv.Itoa(o.Limit),
			"the first %d puzzle IDs hold %d puzzles of this filter, and an export reads no further for a filter it checks puzzle by puzzle "+
				"(anything but one level and one number of givens); %spage through /api/v1/puzzles with the filter "+
				"and export the puzzles it gives with ids=", o.UpToID, len(rows), fewer)
	}
	return rows, nil
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// picked returns the puzzles the parameter ids names, in its order: a
// print of puzzles picked by hand rather than by a filter, so it takes
// no filter, count or seed beside it.
func (s *Server) picked(r *http.Request, q url.Values) ([]store.Row, error) {
	for _, k := range append(slices.Clone(filterParams), "count", "seed") {
		if q.Has(k) {
			return nil, badParam(k, q.Get(k), "give either ids or filters, count and seed")
		}
	}
	ids, err := idsParam(q.Get("ids"))
	if err != nil {
		return nil, err
	}
	rows := make([]store.Row, 0, len(ids))
	for _, id := range ids {
		row, err := s.db.Puzzle(r.Context(), id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("no puzzle with ID %d: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}
