package export

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// PDFOptions holds the PDF's page settings. The zero value is a letter
// book, four puzzles a page, with an answer key; Validate says whether
// a value is one Write accepts.
type PDFOptions struct {
	// Page is the trim size, one of PageSizes: the office sizes letter
	// (also "8.5x11") and a4 have 0.75 in margins all round; the book
	// trims 8x10, 7x10, 6x9, 5.5x8.5 and a5 have 0.6 in at top and
	// bottom, 0.5 in at the sides and a 0.25 in gutter. Empty means letter.
	Page string
	// PerPage is the number of puzzles a page: 1, 2, 4 or 6, or 1 or 2 in
	// large print. Zero means 4, or in large print 2 where that keeps the
	// digits large enough and else 1; for grids other than 8x8 and 9x9
	// it means the most of 4, 2 and 1 that sets the values at the size's
	// preferred size (4x4 and 6x6 large for children, 12x12 and up
	// legible), so that a 16x16 takes a page of its own on the small trims.
	// A count that sets values below 7 pt is refused.
	PerPage int
	// Bleed grows the page by 0.125 in on its outer edges (the outside
	// edge, top and bottom) for printers that trim after printing; the
	// trim box marks the finished page and nothing is drawn past it.
	Bleed bool
	// Gutter is the extra inside margin for binding, added to the page's
	// side margin on the bound edge: the left of odd (right-hand) pages
	// and the right of even ones. "auto" sizes it by the page count
	// (0.375 in up to 150 pages, 0.5 in up to 300, 0.625 in above); a
	// length such as "0.5in", "12mm" or "36pt" sets it; "0" makes the
	// margins symmetric. Empty means the page's own gutter.
	Gutter string
	// LargePrint sets the puzzles' digits at 16 pt or more, one or two
	// puzzles a page, and the answer key four to a page.
	LargePrint bool
	// NoAnswers leaves out the answer key.
	NoAnswers bool
	// NoIDs leaves out each puzzle's bank ID, which is otherwise set in
	// small type under its grid and beside its answer, so that an editor
	// can find a printed puzzle in the bank.
	NoIDs bool
	// Caption says what labels a puzzle besides its number: "none",
	// "level", "rating" (the SE rating) or "full" (both). Empty means full.
	Caption string
	// Copyright is the text of a copyright page after the title page,
	// newlines breaking its lines; none when empty.
	Copyright string
	// Symbols says how grids above 9x9 show values above 9: "letters"
	// (A for 10 up to G for 16, as the text formats write them),
	// "numbers" (10 up, in smaller type fitted to the cell) or "a-p"
	// (every value a letter, A for 1 up to P for 16, as some books
	// print 16x16). Empty means letters. Grids up to 9x9 keep their
	// digits but with "a-p".
	Symbols string
}

// The symbols PDFOptions.Symbols takes.
const (
	SymbolsLetters = "letters"
	SymbolsNumbers = "numbers"
	SymbolsAP      = "a-p"
)

// SymbolSets returns the values PDFOptions.Symbols takes.
func SymbolSets() []string { return []string{SymbolsLetters, SymbolsNumbers, SymbolsAP} }

// OptionError is an option Validate refuses. Name is the option's name
// as the commands' flags spell it ("page", "per-page", "title", ...);
// Value is "" for a switch (large-print).
type OptionError struct {
	Name, Value string
	Err         error
}

// Error returns the option, its value (none for a switch) and why it is
// refused.
func (e *OptionError) Error() string {
	if e.Value == "" {
		// A switch such as large-print has no value to quote.
		return fmt.Sprintf("%s: %v", e.Name, e.Err)
	}
	return fmt.Sprintf("%s %q: %v", e.Name, e.Value, e.Err)
}

// Unwrap returns Err, so that errors.Is sees why the option is refused.
func (e *OptionError) Unwrap() error { return e.Err }

// The captions PDFOptions.Caption takes.
const (
	CaptionNone   = "none"
	CaptionLevel  = "level"
	CaptionRating = "rating"
	CaptionFull   = "full"
)

// All lengths are in PostScript points, 72 to the inch.
const (
	inch  = 72.0
	bleed = 0.125 * inch
)

// pageSize is a trim size with its margins; side is the margin of both
// sides before the gutter is added to the bound one.
type pageSize struct {
	name                       string
	w, h                       float64
	top, bottom, side, gutter  float64
	answerCols, answerRows     int // answer grids a page
	footerSize, answerHeadSize float64
	titleSize                  float64
}

// pageSizes lists the trim sizes, the office sizes first.
var pageSizes = func() []pageSize {
	office := func(name string, w, h float64) pageSize {
		return pageSize{name: name, w: w, h: h, top: 0.75 * inch, bottom: 0.75 * inch, side: 0.75 * inch,
			answerCols: 3, answerRows: 4, footerSize: 10, answerHeadSize: 14, titleSize: 36}
	}
	book := func(name string, w, h float64) pageSize {
		p := pageSize{name: name, w: w, h: h, top: 0.6 * inch, bottom: 0.6 * inch, side: 0.5 * inch, gutter: 0.25 * inch,
			answerCols: 3, answerRows: 4, footerSize: 10, answerHeadSize: 14, titleSize: 36}
		if w < 7*inch {
			p.answerCols, p.answerRows, p.footerSize, p.answerHeadSize, p.titleSize = 2, 3, 9, 12, 28
		}
		return p
	}
	return []pageSize{
		office("letter", 8.5*inch, 11*inch),
		office("8.5x11", 8.5*inch, 11*inch),
		office("a4", 595.28, 841.89),
		book("8x10", 8*inch, 10*inch),
		book("7x10", 7*inch, 10*inch),
		book("6x9", 6*inch, 9*inch),
		book("5.5x8.5", 5.5*inch, 8.5*inch),
		book("a5", 419.53, 595.28),
	}
}()

// PageSizes returns the names PDFOptions.Page takes, in the order a
// usage text shows them.
func PageSizes() []string {
	names := make([]string, len(pageSizes))
	for i, p := range pageSizes {
		names[i] = p.name
	}
	return names
}

// perPageGrid gives the columns and rows of puzzles for each PerPage.
var perPageGrid = map[int][2]int{1: {1, 1}, 2: {1, 2}, 4: {2, 2}, 6: {2, 3}}

// PerPageCounts returns the counts PDFOptions.PerPage takes, ascending.
func PerPageCounts() []int { return []int{1, 2, 4, 6} }

// Captions returns the values PDFOptions.Caption takes.
func Captions() []string { return []string{CaptionNone, CaptionLevel, CaptionRating, CaptionFull} }

// orList joins choices as "a, b or c".
func orList[T any](choices []T) string {
	s := make([]string, len(choices))
	for i, c := range choices {
		s[i] = fmt.Sprint(c)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Digit sizes of large print: puzzles at least largeDigits points, set
// at largeDigitShare of the cell.
const (
	largeDigits     = 16.0
	largeDigitShare = 0.7
	digitShare      = 0.62
	// minDigits is the least size a puzzle's values may be set at, and
	// minAnswerDigits an answer's: below them print stops being legible.
	minDigits       = 7.0
	minAnswerDigits = 6.5
)

// preferredDigits returns the size the default PerPage wants the values
// of an n x n grid set at: large for the children's 4x4 and 6x6, legible
// for 12x12 and up; 0 for 8x8 and 9x9, which take 4 a page as always.
func preferredDigits(n int) float64 {
	switch {
	case n <= 6:
		return 18
	case n >= 12:
		return 9
	}
	return 0
}

// gutterAuto is the gutter by page count, KDP's minimum inside margins.
func gutterAuto(pages int) float64 {
	switch {
	case pages <= 150:
		return 0.375 * inch
	case pages <= 300:
		return 0.5 * inch
	}
	return 0.625 * inch
}

// Validate returns an *OptionError for the first option Write would
// refuse for 9x9 puzzles: an unknown page size, per-page count, gutter,
// caption or symbol set, large print that cannot fit, or copyright text
// the embedded font lacks. ValidateSize checks for another grid size.
func (o PDFOptions) Validate() error {
	_, err := o.layout(0, 9)
	return err
}

// ValidateSize is Validate for a book whose largest grids are size x
// size: Write refuses, besides, a per-page count or large print that
// would set their values too small.
func (o PDFOptions) ValidateSize(size int) error {
	_, err := o.layout(0, size)
	return err
}

// Validate returns an *OptionError for the first option Write would
// refuse for format f: for a PDF, PDFOptions.Validate's and a title
// with a character the embedded font lacks.
func (o Options) Validate(f Format) error {
	if f != PDF {
		return nil
	}
	if err := o.PDF.Validate(); err != nil {
		return err
	}
	fonts, err := goFonts()
	if err != nil {
		return err
	}
	if err := fonts[bold].covers(o.Title, false); err != nil {
		return &OptionError{"title", o.Title, err}
	}
	return nil
}

// pdfLayout is a checked PDFOptions.
type pdfLayout struct {
	page       pageSize
	cols, rows int
	answerCols int
	answerRows int
	bleed      bool
	gutter     float64 // added to the bound side's margin
	autoGutter bool    // the gutter waits for the page count
	caption    string
	ids        bool // print each puzzle's bank ID (not PDFOptions.NoIDs)
	digitShare float64
	minDigits  float64 // the least digit size allowed, 0 for none
	copyright  []string
	n          int    // the largest grid's N: the cells' size follows it
	symbols    string // a checked PDFOptions.Symbols
}

// layout checks o and returns its layout for a book of the given page
// count whose largest grids are n x n; an auto gutter is sized by pages,
// or its widest when pages is 0.
func (o PDFOptions) layout(pages, n int) (pdfLayout, error) {
	l := pdfLayout{bleed: o.Bleed, ids: !o.NoIDs, digitShare: digitShare, n: n}
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
		return l, &OptionError{"page", o.Page, fmt.Errorf("want one of %s", strings.Join(PageSizes(), ", "))}
	}
	l.answerCols, l.answerRows = l.page.answerCols, l.page.answerRows

	switch g := strings.ToLower(strings.TrimSpace(o.Gutter)); g {
	case "":
		l.gutter = l.page.gutter
	case "auto":
		// The widest auto gutter until the end: the page count depends
		// on the puzzles a page, which must not depend on the count.
		l.autoGutter = true
		l.gutter = gutterAuto(1000)
	default:
		v, err := parseLength(g)
		if err == nil && (v < 0 || v > 1.5*inch) {
			err = errors.New("want 0 to 1.5 in")
		}
		if err != nil {
			return l, &OptionError{"gutter", o.Gutter, err}
		}
		l.gutter = v
	}

	l.caption = strings.ToLower(o.Caption)
	if l.caption == "" {
		l.caption = CaptionFull
	}
	if !slices.Contains(Captions(), l.caption) {
		return l, &OptionError{"caption", o.Caption, fmt.Errorf("want %s", orList(Captions()))}
	}

	l.symbols = strings.ToLower(strings.TrimSpace(o.Symbols))
	if l.symbols == "" {
		l.symbols = SymbolsLetters
	}
	if !slices.Contains(SymbolSets(), l.symbols) {
		return l, &OptionError{"symbols", o.Symbols, fmt.Errorf("want %s", orList(SymbolSets()))}
	}

	per := o.PerPage
	if o.LargePrint {
		l.digitShare, l.minDigits = largeDigitShare, largeDigits
		l.answerCols, l.answerRows = 2, 2
		if per == 0 {
			per = 2
			if l.withPerPage(2).digitSize() < largeDigits {
				per = 1
			}
		}
		if per != 1 && per != 2 {
			return l, &OptionError{"per-page", strconv.Itoa(o.PerPage), errors.New("want 1 or 2 in large print")}
		}
	}
	if per == 0 {
		per = 4
		if want := preferredDigits(n); want > 0 {
			for per > 1 && l.withPerPage(per).digitSize() < want {
				per /= 2
			}
		}
	}
	if _, ok := perPageGrid[per]; !ok {
		return l, &OptionError{"per-page", strconv.Itoa(o.PerPage), fmt.Errorf("want %s", orList(PerPageCounts()))}
	}
	l = l.withPerPage(per)
	if err := o.tooSmall(l, per); err != nil {
		return l, err
	}
	l.fitAnswers()

	if o.Copyright != "" {
		fonts, err := goFonts()
		if err != nil {
			return l, err
		}
		if err := fonts[regular].covers(o.Copyright, true); err != nil {
			return l, &OptionError{"copyright", o.Copyright, err}
		}
		l.copyright = strings.Split(strings.ReplaceAll(o.Copyright, "\r\n", "\n"), "\n")
	}
	if l.autoGutter && pages > 0 {
		l.gutter = gutterAuto(pages)
	}
	return l, nil
}

// tooSmall returns the *OptionError of layout l, per puzzles a page,
// when it sets the puzzles' values below the least size allowed, nil
// otherwise. It names the option the user asked for that cannot be kept
// (a PerPage given, else LargePrint, else the page) and says what would
// work: fewer a page, a larger page, or no large print.
func (o PDFOptions) tooSmall(l pdfLayout, per int) error {
	least := max(l.minDigits, minDigits)
	d := l.digitSize()
	if d >= least {
		return nil
	}
	// fits reports whether per puzzles a page on page p are large enough.
	fits := func(p pageSize, per int) bool {
		m := l
		m.page = p
		if strings.TrimSpace(o.Gutter) == "" {
			m.gutter = p.gutter
		}
		return m.withPerPage(per).digitSize() >= least
	}
	var fewer []int
	for _, c := range PerPageCounts() {
		if c < per && fits(l.page, c) {
			fewer = append(fewer, c)
		}
	}
	var larger []string
	for i, p := range pageSizes {
		// 8.5x11 is letter by another name.
		alias := slices.ContainsFunc(pageSizes[:i], func(q pageSize) bool { return q.w == p.w && q.h == p.h })
		if !alias && p.name != l.page.name && fits(p, per) {
			larger = append(larger, p.name)
		}
	}
	var ways []string
	if len(fewer) > 0 {
		ways = append(ways, "-per-page "+orList(fewer))
	}
	if len(larger) > 0 {
		ways = append(ways, "-page "+orList(larger))
	}
	advice := "no page size takes them"
	if len(ways) > 0 {
		advice = "take " + strings.Join(ways, ", or ")
	}
	what, in := "values", ""
	if o.LargePrint {
		what, in = "digits", " in large print"
		advice = strings.TrimPrefix(advice+", or leave out -large-print", "no page size takes them, or ")
	}
	grids := fmt.Sprintf("%s grids on %s%s", l.sizeName(), l.page.name, in)
	var why error
	if o.PerPage != 0 {
		why = fmt.Errorf("%d a page of %s set the %s at %.1f pt, want %g pt or more: %s", per, grids, what, d, least, advice)
	} else {
		why = fmt.Errorf("%s set the %s at %.1f pt even %d a page, want %g pt or more: %s", grids, what, d, per, least, advice)
	}
	switch {
	case o.PerPage != 0:
		return &OptionError{"per-page", strconv.Itoa(o.PerPage), why}
	case o.LargePrint:
		return &OptionError{"large-print", "", why}
	}
	return &OptionError{"page", o.Page, why}
}

func (l pdfLayout) withPerPage(per int) pdfLayout {
	cr := perPageGrid[per]
	l.cols, l.rows = cr[0], cr[1]
	return l
}

// parseLength reads a length such as "0.5in", "12mm", "1.2cm" or "36pt"
// (a bare 0 is allowed) and returns it in points.
func parseLength(s string) (float64, error) {
	num := strings.TrimRightFunc(s, unicode.IsLetter)
	unit := s[len(num):]
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v != v {
		return 0, errors.New("want auto or a length such as 0.5in, 12mm or 36pt")
	}
	switch unit {
	case "in":
		return v * inch, nil
	case "mm":
		return v * inch / 25.4, nil
	case "cm":
		return v * inch / 2.54, nil
	case "pt":
		return v, nil
	case "":
		if v == 0 {
			return 0, nil
		}
	}
	return 0, errors.New("want auto or a length such as 0.5in, 12mm or 36pt")
}
