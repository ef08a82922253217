package export

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sudokubank/solve"
)

// All lengths are in PostScript points, 72 to the inch.
const inch = 72.0

// pageSize is a trim size with its margins. With mirror set, inner is the
// binding side: the left margin of odd (right-hand) pages and the right
// margin of even ones.
type pageSize struct {
	name                       string
	w, h                       float64
	top, bottom, inner, outer  float64
	mirror                     bool
	answerCols, answerRows     int // answer grids a page
	footerSize, answerHeadSize float64
}

// pageSizes lists the trim sizes. Letter and A4 get 3/4 in margins all
// round; 6x9 in (a trade paperback) gets the wider inside margin a bound
// book needs, mirrored page by page.
var pageSizes = []pageSize{
	{name: "letter", w: 8.5 * inch, h: 11 * inch, top: 0.75 * inch, bottom: 0.75 * inch, inner: 0.75 * inch, outer: 0.75 * inch,
		answerCols: 3, answerRows: 4, footerSize: 10, answerHeadSize: 14},
	{name: "a4", w: 595.28, h: 841.89, top: 0.75 * inch, bottom: 0.75 * inch, inner: 0.75 * inch, outer: 0.75 * inch,
		answerCols: 3, answerRows: 4, footerSize: 10, answerHeadSize: 14},
	{name: "6x9", w: 6 * inch, h: 9 * inch, top: 0.6 * inch, bottom: 0.6 * inch, inner: 0.75 * inch, outer: 0.5 * inch,
		mirror: true, answerCols: 2, answerRows: 3, footerSize: 9, answerHeadSize: 12},
}

// perPageGrid gives the columns and rows of puzzles for each PerPage.
var perPageGrid = map[int][2]int{1: {1, 1}, 2: {1, 2}, 4: {2, 2}, 6: {2, 3}}

// pdfLayout is a checked PDFOptions.
type pdfLayout struct {
	page       pageSize
	cols, rows int
}

func pdfLayoutFor(o PDFOptions) (pdfLayout, error) {
	var l pdfLayout
	name := strings.ToLower(o.Page)
	if name == "" {
		name = "letter"
	}
	found := false
	for _, p := range pageSizes {
		if p.name == name {
			l.page, found = p, true
		}
	}
	if !found {
		return l, fmt.Errorf("page size %q: want letter, a4 or 6x9", o.Page)
	}
	per := o.PerPage
	if per == 0 {
		per = 4
	}
	cr, ok := perPageGrid[per]
	if !ok {
		return l, fmt.Errorf("%d puzzles a page: want 1, 2, 4 or 6", o.PerPage)
	}
	l.cols, l.rows = cr[0], cr[1]
	return l, nil
}

func (l pdfLayout) perPage() int    { return l.cols * l.rows }
func (l pdfLayout) answersPer() int { return l.page.answerCols * l.page.answerRows }

// PDFPages returns the number of pages the PDF of n puzzles has: the title
// page (when the title is set), the puzzle pages and the answer pages.
func PDFPages(n int, opt Options) (int, error) {
	l, err := pdfLayoutFor(opt.PDF)
	if err != nil {
		return 0, err
	}
	pages := ceilDiv(n, l.perPage()) + ceilDiv(n, l.answersPer())
	if opt.Title != "" {
		pages++
	}
	return pages, nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// box is a rectangle on the page, origin bottom left.
type box struct{ x, y, w, h float64 }

// live returns the area inside the margins of page number pageNo (1-based).
func (p pageSize) live(pageNo int) box {
	left, right := p.inner, p.outer
	if p.mirror && pageNo%2 == 0 {
		left, right = p.outer, p.inner
	}
	return box{left, p.bottom, p.w - left - right, p.h - p.top - p.bottom}
}

// Font indexes into goFonts and the page resources /F1, /F2.
const (
	regular = 0
	bold    = 1
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
}

func writePDF(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	l, err := pdfLayoutFor(opt.PDF)
	if err != nil {
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
	b.res = fmt.Sprintf("<< /Font << /F1 %d 0 R /F2 %d 0 R >> >>", doc.embed(fonts[regular]), doc.embed(fonts[bold]))

	puzzlePages := ceilDiv(len(ps), l.perPage())
	if opt.Title != "" {
		// The title page counts in the numbering but shows no number.
		b.titlePage(opt.Title, len(ps), 2+puzzlePages)
		b.endPage(false)
	}
	for i := 0; i < len(ps); i += l.perPage() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if doc.err != nil {
			return doc.err
		}
		b.puzzlePage(ps[i:min(i+l.perPage(), len(ps))])
		b.endPage(true)
	}
	for i := 0; i < len(ps); i += l.answersPer() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if doc.err != nil {
			return doc.err
		}
		b.answerPage(ps[i:min(i+l.answersPer(), len(ps))])
		b.endPage(true)
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
	info := doc.alloc()
	title := opt.Title
	if title == "" {
		title = "Sudoku puzzles"
	}
	doc.object(info, fmt.Sprintf("<< /Title %s /Creator (sudokubank) /Producer (sudokubank export) >>", pdfString(title)))
	return doc.finish(catalog, info)
}

// pageNo returns the 1-based number of the page being drawn.
func (b *book) pageNo() int { return len(b.pages) + 1 }

// endPage adds the page number (when numbered), writes the page and
// starts the next.
func (b *book) endPage(numbered bool) {
	p := b.l.page
	if numbered {
		live := p.live(b.pageNo())
		s := strconv.Itoa(b.pageNo())
		size := p.footerSize
		b.c.gray(0)
		b.c.text(regular, size, live.x+(live.w-b.fonts[regular].width(s, size))/2, p.bottom/2-size/3, s)
	}
	contents, page := b.doc.alloc(), b.doc.alloc()
	b.doc.stream(contents, "", b.c.b)
	box := fmt.Sprintf("[0 0 %s %s]", fmtPt(p.w), fmtPt(p.h))
	// No bleed: the trim box is the whole page.
	b.doc.object(page, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /TrimBox %s /Resources %s /Contents %d 0 R >>",
		b.tree, box, box, b.res, contents))
	b.pages = append(b.pages, page)
	b.c.reset()
}

func fmtPt(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// titlePage draws the pack's title, wrapped to fit, and what follows it.
func (b *book) titlePage(title string, n, answersFrom int) {
	live := b.l.page.live(b.pageNo())
	size := 36.0
	if b.l.page.name == "6x9" {
		size = 28
	}
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
		b.c.text(bold, size, live.x+(live.w-b.fonts[bold].width(line, size))/2, y, line)
		y -= size * 1.25
	}
	sub := plural(n, "puzzle") + " with answers"
	y -= subSize * 1.5
	b.c.text(regular, subSize, live.x+(live.w-b.fonts[regular].width(sub, subSize))/2, y, sub)
	sub = "Answers begin on page " + strconv.Itoa(answersFrom)
	y -= subSize * 1.6
	b.c.text(regular, subSize, live.x+(live.w-b.fonts[regular].width(sub, subSize))/2, y, sub)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
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
	live := b.l.page.live(b.pageNo())
	slotW, slotH := live.w/float64(b.l.cols), live.h/float64(b.l.rows)
	// The label's size follows the grid's; the gap between two grids is
	// at least a label's height.
	size := min(max(slotW*0.045, 9), 16)
	gap := max(size*1.6, slotW*0.1)
	grid := min(slotW-gap, slotH-gap-size*1.8)
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
		if p.LevelName != "" {
			parts = append(parts, levelLabel(p.LevelName))
		}
		if p.Rating > 0 {
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
	}
}

// answerPage draws solutions, smaller and more to a page: givens in bold
// black, the digits the solver fills in regular gray.
func (b *book) answerPage(ps []parsed) {
	p := b.l.page
	live := p.live(b.pageNo())
	head := p.answerHeadSize
	b.c.gray(0)
	b.c.text(bold, head, live.x+(live.w-b.fonts[bold].width("Answers", head))/2, live.y+live.h-head, "Answers")
	area := box{live.x, live.y, live.w, live.h - head*2.2}
	cols, rows := p.answerCols, p.answerRows
	slotW, slotH := area.w/float64(cols), area.h/float64(rows)
	size := min(max(slotW*0.05, 7), 10)
	gap := max(size*1.6, slotW*0.1)
	grid := min(slotW-gap, slotH-gap-size*1.6)
	for i, s := range ps {
		col, row := i%cols, i/cols
		cx := area.x + slotW*(float64(col)+0.5)
		top := area.y + area.h - slotH*float64(row)
		blockH := size*1.6 + grid
		gy := top - (slotH-blockH)/2 - blockH
		gx := cx - grid/2
		b.c.gray(0)
		b.c.text(bold, size, gx, gy+grid+size*0.5, strconv.Itoa(s.Number))
		b.grid(gx, gy, grid, s.puzzle, &s.solution)
	}
}

// grid draws a Sudoku grid of side size with its lower left corner at
// (x, y): thin cell lines, thick box lines, a thicker outer border, and
// the puzzle's givens centred in their cells. With a solution, the cells
// the puzzle leaves empty get the solution's digits in regular gray.
func (b *book) grid(x, y, size float64, puzzle solve.Grid, solution *solve.Grid) {
	cell := size / 9
	// Line weights scale with the grid but never drop below what a
	// printer holds (about 0.3 pt).
	thin := max(0.3, size/500)
	thick := max(0.9, size/170)
	outer := thick * 1.35
	c := &b.c
	c.gray(0)
	c.op("0 J 0 j")
	// One path per line weight: thin cell lines, thick box lines, then
	// the border over their ends.
	c.lineWidth(thin)
	for i := 1; i < 9; i++ {
		if i%3 != 0 {
			o := cell * float64(i)
			c.segment(x+o, y, x+o, y+size)
			c.segment(x, y+o, x+size, y+o)
		}
	}
	c.op("S")
	c.lineWidth(thick)
	for i := 3; i < 9; i += 3 {
		o := cell * float64(i)
		c.segment(x+o, y, x+o, y+size)
		c.segment(x, y+o, x+size, y+o)
	}
	c.op("S")
	c.lineWidth(outer)
	c.rect(x, y, size, size)

	digit := cell * 0.62
	if solution != nil {
		digit = cell * 0.66
	}
	// Centre the digit's ink, not its em box, in the cell.
	rise := (cell - float64(b.fonts[bold].digitTop)*digit/1000) / 2
	place := func(font int, i int, v uint8) (float64, float64) {
		w := float64(b.fonts[font].widths['0'+v]) * digit / 1000
		return x + cell*float64(i%9) + (cell-w)/2, y + size - cell*float64(i/9+1) + rise
	}
	c.beginText(bold, digit)
	for i, v := range puzzle {
		if v != 0 {
			px, py := place(bold, i, v)
			c.digit(px, py, v)
		}
	}
	c.endText()
	if solution != nil {
		c.gray(0.4)
		c.beginText(regular, digit)
		for i, v := range solution {
			if puzzle[i] == 0 {
				px, py := place(regular, i, v)
				c.digit(px, py, v)
			}
		}
		c.endText()
		c.gray(0)
	}
}
