package export

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sudokubank/grid"
	"sudokubank/internal/plural"
)

// liveSize returns the width and height of a page's live area.
func (l pdfLayout) liveSize() (w, h float64) {
	return l.page.w - 2*l.page.side - l.gutter, l.page.h - l.page.top - l.page.bottom
}

// digitSize returns the size of the puzzles' digits on a page.
func (l pdfLayout) digitSize() float64 {
	w, h := l.liveSize()
	_, _, _, grid := l.puzzleSlot(box{0, 0, w, h})
	return grid / float64(l.n) * l.digitShare
}

// sizeWord names the grid size in a message, " 16x16", or "" for 9x9.
func (l pdfLayout) sizeWord() string {
	if l.n == 9 {
		return ""
	}
	return fmt.Sprintf(" %dx%d", l.n, l.n)
}

// sizeName names the grid size in a message: "9x9", "16x16".
func (l pdfLayout) sizeName() string { return fmt.Sprintf("%dx%d", l.n, l.n) }

// answerHead returns the height the answer pages' heading takes.
func (l pdfLayout) answerHead() float64 { return l.page.answerHeadSize * 2.2 }

// answerSlot returns the size of an answer slot in area, its label's
// size and the grid's side, for cols x rows answers a page.
func (l pdfLayout) answerSlot(area box, cols, rows int) (slotW, slotH, label, grid float64) {
	slotW, slotH = area.w/float64(cols), area.h/float64(rows)
	label = min(max(slotW*0.05, 7), 10)
	gap := max(label*1.6, slotW*0.1)
	grid = min(slotW-gap, slotH-gap-label*1.6)
	return slotW, slotH, label, grid
}

// answerDigits is the share of an answer cell its values take.
const answerDigits = 0.66

// fitAnswers puts fewer answers on a page where the page's count would
// set a large grid's values below minAnswerDigits.
func (l *pdfLayout) fitAnswers() {
	w, h := l.liveSize()
	area := box{0, 0, w, h - l.answerHead()}
	fits := func(cols, rows int) bool {
		_, _, _, grid := l.answerSlot(area, cols, rows)
		return grid/float64(l.n)*answerDigits >= minAnswerDigits
	}
	if fits(l.answerCols, l.answerRows) {
		return
	}
	for _, cr := range [...][2]int{{2, 3}, {2, 2}, {1, 2}, {1, 1}} {
		if cr[0]*cr[1] < l.answerCols*l.answerRows && (fits(cr[0], cr[1]) || cr == [2]int{1, 1}) {
			l.answerCols, l.answerRows = cr[0], cr[1]
			return
		}
	}
}

// puzzleSlot returns a puzzle slot's size in the live area, its label's
// size and the grid's side.
func (l pdfLayout) puzzleSlot(live box) (slotW, slotH, label, grid float64) {
	slotW, slotH = live.w/float64(l.cols), live.h/float64(l.rows)
	// The label's size follows the grid's; the gap between two grids is
	// at least a label's height.
	label = min(max(slotW*0.045, 9), 16)
	if l.minDigits > 0 {
		label = max(label, 14)
	}
	gap := max(label*1.6, slotW*0.1)
	grid = min(slotW-gap, slotH-gap-label*1.8)
	return slotW, slotH, label, grid
}

func (l pdfLayout) perPage() int    { return l.cols * l.rows }
func (l pdfLayout) answersPer() int { return l.answerCols * l.answerRows }

// plan is the sequence of a book's pages.
type plan struct {
	title, copyright bool
	puzzles          []int // the puzzles on each puzzle page
	blank            bool  // a blank page puts the answers on a right-hand page
	answers          []int // the answers on each answer page
}

func newPlan(n int, l pdfLayout, title, answers bool) plan {
	pl := plan{title: title, copyright: len(l.copyright) > 0, puzzles: spread(n, l.perPage())}
	if answers {
		pl.answers = spread(n, l.answersPer())
		pl.blank = pl.answersFrom()%2 == 0
	}
	return pl
}

// front returns the number of pages before the puzzles.
func (pl plan) front() int {
	n := 0
	if pl.title {
		n++
	}
	if pl.copyright {
		n++
	}
	return n
}

// answersFrom returns the number of the first answer page.
func (pl plan) answersFrom() int {
	n := pl.front() + len(pl.puzzles) + 1
	if pl.blank {
		n++
	}
	return n
}

func (pl plan) pages() int { return pl.answersFrom() - 1 + len(pl.answers) }

// spread returns how many of n things each page of per holds: full
// pages but for the last, except that a last page of one takes some
// from the page before where a page holds three or more.
func spread(n, per int) []int {
	pages := ceilDiv(n, per)
	counts := make([]int, pages)
	for i := range counts {
		counts[i] = per
	}
	if pages == 0 {
		return counts
	}
	counts[pages-1] = n - per*(pages-1)
	if counts[pages-1] == 1 && per >= 3 && pages >= 2 {
		counts[pages-2], counts[pages-1] = (per+2)/2, (per+1)/2
	}
	return counts
}

// PDFPages returns the number of pages the PDF of n 9x9 puzzles has:
// the title and copyright pages when set, the puzzle pages, and the
// answer pages with the blank page that may come before them.
func PDFPages(n int, opt Options) (int, error) { return PDFPagesSized(n, 9, opt) }

// PDFPagesSized is PDFPages for a book whose largest grids are size x
// size, which may take fewer to a page.
func PDFPagesSized(n, size int, opt Options) (int, error) {
	l, err := opt.PDF.layout(0, size)
	if err != nil {
		return 0, err
	}
	return newPlan(n, l, opt.Title != "", !opt.PDF.NoAnswers).pages(), nil
}

// PDFPagesOf is PDFPages for the book of items, whose largest grid sets
// how many take a page.
func PDFPagesOf(items []Item, opt Options) (int, error) {
	n := 0
	for i := range items {
		if s, err := itemShape(&items[i]); err == nil {
			n = max(n, s.N)
		}
	}
	if n == 0 {
		n = 9
	}
	return PDFPagesSized(len(items), n, opt)
}

// largest returns the N of the largest grid among ps, 9 for none.
func largest(ps []parsed) int {
	n := 0
	for _, p := range ps {
		n = max(n, p.puzzle.Shape.N)
	}
	if n == 0 {
		return 9
	}
	return n
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// box is a rectangle on the page, origin bottom left.
type box struct{ x, y, w, h float64 }

// trim returns the finished page's box on page number pageNo (1-based)
// and the size of the whole page, bleed included. With bleed, the
// outside edge of a right-hand (odd) page is its right one.
func (l pdfLayout) trim(pageNo int) (trim box, w, h float64) {
	p := l.page
	if !l.bleed {
		return box{0, 0, p.w, p.h}, p.w, p.h
	}
	x := 0.0
	if pageNo%2 == 0 {
		x = bleed
	}
	return box{x, bleed, p.w, p.h}, p.w + bleed, p.h + 2*bleed
}

// live returns the area inside the margins of page number pageNo; the
// gutter widens the left margin of odd pages and the right of even ones.
func (l pdfLayout) live(pageNo int) box {
	t, _, _ := l.trim(pageNo)
	p := l.page
	left, right := p.side, p.side
	if pageNo%2 == 1 {
		left += l.gutter
	} else {
		right += l.gutter
	}
	return box{t.x + left, t.y + p.bottom, p.w - left - right, p.h - p.top - p.bottom}
}

// Font indexes into goFonts and the page resources /F1, /F2; the Type0
// fonts over the same files are /F3 and /F4 (font+unicodeFont+1).
const (
	regular     = 0
	bold        = 1
	unicodeFont = 2
)

// book renders the pages of one PDF.
type book struct {
	doc   *pdfDoc
	fonts [2]*pdfFont
	l     pdfLayout
	c     content
	pages []int // page object numbers
	tree  int   // the page tree's object number
	res   string
	used  [2]map[uint16]rune // the glyphs set in each Type0 font
}

func writePDF(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	n := largest(ps)
	l, err := opt.PDF.layout(0, n)
	if err != nil {
		return err
	}
	pl := newPlan(len(ps), l, opt.Title != "", !opt.PDF.NoAnswers)
	// Only an auto gutter changes with the page count, and not the plan.
	if l, err = opt.PDF.layout(pl.pages(), n); err != nil {
		return err
	}
	fonts, err := goFonts()
	if err != nil {
		return err
	}
	doc := newPDFDoc(w)
	b := &book{doc: doc, fonts: fonts, l: l}
	catalog := doc.alloc()
	b.tree = doc.alloc()
	f1, file1 := doc.embed(fonts[regular])
	f2, file2 := doc.embed(fonts[bold])
	var type0 [2]int
	if !winAnsiOK(opt.Title) || !winAnsiOK(opt.PDF.Copyright) {
		type0 = [2]int{doc.alloc(), doc.alloc()}
		b.used = [2]map[uint16]rune{{}, {}}
		b.res = fmt.Sprintf("<< /Font << /F1 %d 0 R /F2 %d 0 R /F3 %d 0 R /F4 %d 0 R >> >>", f1, f2, type0[0], type0[1])
	} else {
		b.res = fmt.Sprintf("<< /Font << /F1 %d 0 R /F2 %d 0 R >> >>", f1, f2)
	}

	// The front matter counts in the numbering but shows no number.
	if pl.title {
		b.titlePage(opt.Title, len(ps), pl)
		b.endPage(false)
	}
	if pl.copyright {
		b.copyrightPage()
		b.endPage(false)
	}
	pages := []struct {
		counts []int
		draw   func([]parsed)
	}{{pl.puzzles, b.puzzlePage}, {pl.answers, b.answerPage}}
	for k, part := range pages {
		if k == 1 && pl.blank {
			b.endPage(false)
		}
		i := 0
		for _, n := range part.counts {
			if err := ctx.Err(); err != nil {
				return err
			}
			if doc.err != nil {
				return doc.err
			}
			part.draw(ps[i : i+n])
			b.endPage(true)
			i += n
		}
	}

	var kids strings.Builder
	for i, p := range b.pages {
		if i > 0 {
			kids.WriteByte(' ')
		}
		kids.WriteString(strconv.Itoa(p))
		kids.WriteString(" 0 R")
	}
	doc.object(b.tree, fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", len(b.pages), kids.String()))
	doc.object(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", b.tree))
	if type0[0] != 0 {
		doc.embedType0(type0[0], fonts[regular], file1, b.used[regular])
		doc.embedType0(type0[1], fonts[bold], file2, b.used[bold])
	}
	info := doc.alloc()
	title := opt.Title
	if title == "" {
		title = "Sudoku puzzles"
	}
	doc.object(info, pdfInfo(title, opt))
	return doc.finish(catalog, info)
}

// pdfInfo returns the document information dictionary: the title, and
// the pack's credits where Options sets them (the author as /Author, the
// source name as /Subject, the url as /Keywords, the date as
// /CreationDate), text as UTF-16BE so that viewers show any script.
func pdfInfo(title string, opt Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<< /Title %s", pdfUTF16(title))
	for _, kv := range [...][2]string{{"Author", opt.Author}, {"Subject", opt.SourceName}, {"Keywords", opt.URL}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " /%s %s", kv[0], pdfUTF16(kv[1]))
		}
	}
	if !opt.Date.IsZero() {
		fmt.Fprintf(&b, " /CreationDate (D:%s)", opt.Date.UTC().Format("20060102150405Z"))
	}
	b.WriteString(" /Creator (sudokubank) /Producer (sudokubank export) >>")
	return b.String()
}

// pageNo returns the 1-based number of the page being drawn.
func (b *book) pageNo() int { return len(b.pages) + 1 }

// text sets s at (x, y): in the simple font when WinAnsi encodes it, or
// else by glyph id in the Type0 font over the same file.
func (b *book) text(font int, size, x, y float64, s string) {
	if winAnsiOK(s) || b.used[font] == nil {
		b.c.text(font, size, x, y, s)
		return
	}
	gids := make([]uint16, 0, len(s))
	for _, r := range s {
		g, _ := b.fonts[font].glyph(r)
		b.used[font][g] = r
		gids = append(gids, g)
	}
	b.c.glyphText(font+unicodeFont, size, x, y, gids)
}

// centred sets s centred across the live area lv at baseline y.
func (b *book) centred(font int, size float64, lv box, y float64, s string) {
	b.text(font, size, lv.x+(lv.w-b.fonts[font].width(s, size))/2, y, s)
}

// endPage adds the page number (when numbered), writes the page and
// starts the next.
func (b *book) endPage(numbered bool) {
	p := b.l.page
	t, mw, mh := b.l.trim(b.pageNo())
	if numbered {
		size := p.footerSize
		// Printers want ink 0.25 in inside the trim, 0.375 in with bleed.
		safe := 0.25 * inch
		if b.l.bleed {
			safe = 0.375 * inch
		}
		b.c.gray(0)
		b.centred(regular, size, b.l.live(b.pageNo()), t.y+max(p.bottom/2-size/3, safe), strconv.Itoa(b.pageNo()))
	}
	contents, page := b.doc.alloc(), b.doc.alloc()
	b.doc.stream(contents, "", b.c.b)
	media := fmt.Sprintf("[0 0 %s %s]", fmtPt(mw), fmtPt(mh))
	boxes := fmt.Sprintf("/MediaBox %s /TrimBox %s", media, media)
	if b.l.bleed {
		boxes = fmt.Sprintf("/MediaBox %s /BleedBox %s /TrimBox [%s %s %s %s]", media, media,
			fmtPt(t.x), fmtPt(t.y), fmtPt(t.x+t.w), fmtPt(t.y+t.h))
	}
	b.doc.object(page, fmt.Sprintf("<< /Type /Page /Parent %d 0 R %s /Resources %s /Contents %d 0 R >>",
		b.tree, boxes, b.res, contents))
	b.pages = append(b.pages, page)
	b.c.reset()
}

func fmtPt(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// titlePage draws the pack's title, wrapped to fit, and what follows it.
func (b *book) titlePage(title string, n int, pl plan) {
	live := b.l.live(b.pageNo())
	size := b.l.page.titleSize
	subSize := size * 0.45
	lines := wrap(b.fonts[bold], title, size, live.w)
	// A word longer than the line is wide shrinks the title until it fits.
	for size > 10 && widest(b.fonts[bold], lines, size) > live.w {
		size *= 0.9
		lines = wrap(b.fonts[bold], title, size, live.w)
	}
	y := live.y + live.h*0.62 + float64(len(lines)-1)*size*1.25/2
	b.c.gray(0)
	for _, line := range lines {
		b.centred(bold, size, live, y, line)
		y -= size * 1.25
	}
	sub := plural.Count(int64(n), "puzzle")
	if len(pl.answers) > 0 {
		sub += " with answers"
	}
	y -= subSize * 1.5
	b.centred(regular, subSize, live, y, sub)
	if len(pl.answers) > 0 {
		y -= subSize * 1.6
		b.centred(regular, subSize, live, y, "Answers begin on page "+strconv.Itoa(pl.answersFrom()))
	}
}

// copyrightPage sets the copyright text at the foot of the live area,
// as a book's copyright page has it.
func (b *book) copyrightPage() {
	live := b.l.live(b.pageNo())
	size := b.l.page.footerSize
	var lines []string
	for _, para := range b.l.copyright {
		lines = append(lines, wrap(b.fonts[regular], para, size, live.w)...)
	}
	b.c.gray(0)
	y := live.y + float64(len(lines)-1)*size*1.4
	for _, line := range lines {
		if line != "" {
			b.text(regular, size, live.x, y, line)
		}
		y -= size * 1.4
	}
}

// wrap breaks s into lines no wider than width, at spaces where it can.
func wrap(f *pdfFont, s string, size, width float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && f.width(try, size) > width {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// widest returns the width of the widest line.
func widest(f *pdfFont, lines []string, size float64) float64 {
	w := 0.0
	for _, l := range lines {
		w = max(w, f.width(l, size))
	}
	return w
}

// levelLabel turns "extremely-easy" into "Extremely easy".
func levelLabel(s string) string {
	s = strings.ReplaceAll(s, "-", " ")
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// puzzlePage draws up to PerPage puzzles in a cols x rows array of slots,
// each a label line above a grid.
func (b *book) puzzlePage(ps []parsed) {
	live := b.l.live(b.pageNo())
	slotW, slotH, size, grid := b.l.puzzleSlot(live)
	for i, p := range ps {
		col, row := i%b.l.cols, i/b.l.cols
		cx := live.x + slotW*(float64(col)+0.5)
		top := live.y + live.h - slotH*float64(row)
		// Centre label and grid together in the slot.
		blockH := size*1.8 + grid
		gy := top - (slotH-blockH)/2 - blockH
		gx := cx - grid/2
		left := "Puzzle " + strconv.Itoa(p.Number)
		var parts []string
		if c := b.l.caption; p.LevelName != "" && (c == CaptionLevel || c == CaptionFull) {
			parts = append(parts, levelLabel(p.LevelName))
		}
		if c := b.l.caption; p.Rating > 0 && (c == CaptionRating || c == CaptionFull) {
			parts = append(parts, "SE "+ratingText(p.Rating))
		}
		right := strings.Join(parts, " \u2013 ")
		// Shrink the label, not the grid, when both halves do not fit
		// above it with an em between them.
		ls := size
		if w := b.fonts[bold].width(left, 1) + b.fonts[regular].width(right, 1) + 1; w*ls > grid {
			ls = grid / w
		}
		b.c.gray(0)
		b.c.text(bold, ls, gx, gy+grid+size*0.6, left)
		if right != "" {
			b.c.text(regular, ls, gx+grid-b.fonts[regular].width(right, ls), gy+grid+size*0.6, right)
		}
		b.grid(gx, gy, grid, p.puzzle, nil)
		if id := b.idText(p.ID); id != "" {
			// Under the grid's right edge, in the slot's margin below
			// the block (at least gap/2, 0.8 label high) and the room
			// the label below keeps over its text.
			is := idSize(size)
			b.c.gray(0.35)
			b.c.text(regular, is, gx+grid-b.fonts[regular].width(id, is), gy-is*1.25, id)
			b.c.gray(0)
		}
	}
}

// idText returns the label of a puzzle's bank ID, or "" where the IDs
// are not printed or the item has none (items not from a bank).
func (b *book) idText(id int64) string {
	if !b.l.ids || id <= 0 {
		return ""
	}
	return "ID " + strconv.FormatInt(id, 10)
}

// idSize returns the size of the ID beside a label of size label: small,
// but never below the 6 pt a printed page stays legible at.
func idSize(label float64) float64 { return max(label*0.55, 6) }

// answerPage draws solutions, smaller and more to a page: givens in bold
// black, the digits the solver fills in regular gray.
func (b *book) answerPage(ps []parsed) {
	live := b.l.live(b.pageNo())
	head := b.l.page.answerHeadSize
	b.c.gray(0)
	b.centred(bold, head, live, live.y+live.h-head, "Answers")
	area := box{live.x, live.y, live.w, live.h - b.l.answerHead()}
	cols, rows := b.l.answerCols, b.l.answerRows
	slotW, slotH, size, grid := b.l.answerSlot(area, cols, rows)
	for i, s := range ps {
		col, row := i%cols, i/cols
		cx := area.x + slotW*(float64(col)+0.5)
		top := area.y + area.h - slotH*float64(row)
		blockH := size*1.6 + grid
		gy := top - (slotH-blockH)/2 - blockH
		gx := cx - grid/2
		b.c.gray(0)
		b.c.text(bold, size, gx, gy+grid+size*0.5, strconv.Itoa(s.Number))
		if id := b.idText(s.ID); id != "" {
			// On the number's line, at the grid's right edge.
			is := idSize(size)
			b.c.gray(0.35)
			b.c.text(regular, is, gx+grid-b.fonts[regular].width(id, is), gy+grid+size*0.5, id)
			b.c.gray(0)
		}
		b.grid(gx, gy, grid, s.puzzle, &s.solution)
	}
}

// grid draws a Sudoku grid of side size with its lower left corner at
// (x, y): thin cell lines, thick box lines, a thicker outer border, and
// the puzzle's givens centred in their cells. With a solution, the cells
// the puzzle leaves empty get the solution's values in regular gray.
func (b *book) grid(x, y, size float64, puzzle grid.Grid, solution *grid.Grid) {
	s := puzzle.Shape
	n := s.N
	cell := size / float64(n)
	// Line weights scale with the grid but never drop below what a
	// printer holds (about 0.3 pt).
	thin := max(0.3, size/500)
	thick := max(0.9, size/170)
	outer := thick * 1.35
	c := &b.c
	c.gray(0)
	c.op("0 J 0 j")
	// One path per line weight: thin cell lines, thick box lines, then
	// the border over their ends. Columns fall into stacks of BoxCols,
	// rows into bands of BoxRows.
	c.lineWidth(thin)
	for i := 1; i < n; i++ {
		o := cell * float64(i)
		if i%s.BoxCols != 0 {
			c.segment(x+o, y, x+o, y+size)
		}
		if i%s.BoxRows != 0 {
			c.segment(x, y+o, x+size, y+o)
		}
	}
	c.op("S")
	c.lineWidth(thick)
	for i := 1; i < n; i++ {
		o := cell * float64(i)
		if i%s.BoxCols == 0 {
			c.segment(x+o, y, x+o, y+size)
		}
		if i%s.BoxRows == 0 {
			c.segment(x, y+o, x+size, y+o)
		}
	}
	c.op("S")
	c.lineWidth(outer)
	c.rect(x, y, size, size)

	digit := cell * b.l.digitShare
	if solution != nil {
		digit = cell * answerDigits
	}
	b.values(x, y, size, digit, puzzle, nil)
	if solution != nil {
		c.gray(0.4)
		b.values(x, y, size, digit, *solution, puzzle.Cells)
		c.gray(0)
	}
}

// values sets g's values (those of the cells empty in skip, when skip is
// set) centred in the cells of a grid of side size at (x, y), at size
// digit: in bold for a puzzle,
// in regular for an answer's filled-in cells. Two-character values
// ("numbers" symbols) are set smaller, to fit the cell, in a text object
// of their own.
func (b *book) values(x, y, size, digit float64, g grid.Grid, skip []uint8) {
	font := bold
	if skip != nil {
		font = regular
	}
	f := b.fonts[font]
	n := g.Shape.N
	cell := size / float64(n)
	top := y + size
	// Centre the digit's ink, not its em box, in the cell.
	rise := func(d float64) float64 { return (cell - float64(b.fonts[bold].digitTop)*d/1000) / 2 }
	c := &b.c
	two := false
	c.beginText(font, digit)
	r := rise(digit)
	for i, v := range g.Cells {
		if v == 0 || (skip != nil && skip[i] != 0) {
			continue
		}
		sym := b.symbol(n, v)
		if len(sym) > 1 {
			two = true
			continue
		}
		w := float64(f.widths[sym[0]]) * digit / 1000
		c.glyph(x+cell*float64(i%n)+(cell-w)/2, top-cell*float64(i/n+1)+r, sym[0])
	}
	c.endText()
	if !two {
		return
	}
	// The widest two-character value, "88" in width, fits 80% of the cell.
	small := min(digit, cell*0.8/(f.width("88", 1)))
	r = rise(small)
	c.beginText(font, small)
	for i, v := range g.Cells {
		if v == 0 || (skip != nil && skip[i] != 0) {
			continue
		}
		sym := b.symbol(n, v)
		if len(sym) < 2 {
			continue
		}
		w := f.width(sym, small)
		c.glyphs(x+cell*float64(i%n)+(cell-w)/2, top-cell*float64(i/n+1)+r, sym)
	}
	c.endText()
}

// symbol returns the text of value v in an n x n grid, as
// PDFOptions.Symbols asks.
func (b *book) symbol(n int, v uint8) string {
	switch {
	case b.l.symbols == SymbolsAP && n > 9:
		return string(rune('A' + v - 1))
	case v <= 9:
		return string(rune('0' + v))
	case b.l.symbols == SymbolsNumbers:
		return strconv.Itoa(int(v))
	}
	return string(grid.Symbol(v))
}
