package export

// A minimal PDF 1.4 writer: numbered objects written as they are made,
// Flate-compressed streams, a cross-reference table at the end, and
// TrueType fonts embedded whole (FontFile2). Text WinAnsi can encode is
// set in simple fonts with their real advance widths; other text (Greek,
// Cyrillic, ...) in Type0 fonts over the same font files, by glyph id
// (Identity-H) with a ToUnicode map so that it can be searched and
// copied. Pages hold only lines, rectangles and text, which is all a
// puzzle book needs.

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// pdfDoc writes a PDF's objects to w and remembers where each began.
type pdfDoc struct {
	w       *bufio.Writer
	n       int64   // bytes written so far
	offsets []int64 // offsets[i] is where object i begins; 0 is unused
	zbuf    bytes.Buffer
	zw      *zlib.Writer
	err     error // the first write error; later writes are dropped
}

func newPDFDoc(w io.Writer) *pdfDoc {
	d := &pdfDoc{w: bufio.NewWriterSize(w, 1<<16), offsets: []int64{0}}
	d.zw, _ = zlib.NewWriterLevel(&d.zbuf, zlib.BestSpeed)
	// The binary comment tells transfer tools the file is not text.
	d.raw("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	return d
}

func (d *pdfDoc) raw(s string) {
	n, err := d.w.WriteString(s)
	d.n += int64(n)
	if err != nil && d.err == nil {
		d.err = err
	}
}

func (d *pdfDoc) rawBytes(b []byte) {
	n, err := d.w.Write(b)
	d.n += int64(n)
	if err != nil && d.err == nil {
		d.err = err
	}
}

// alloc reserves the next object number.
func (d *pdfDoc) alloc() int {
	d.offsets = append(d.offsets, 0)
	return len(d.offsets) - 1
}

// object writes object num with the given body (a dictionary or array).
func (d *pdfDoc) object(num int, body string) {
	d.offsets[num] = d.n
	d.raw(strconv.Itoa(num) + " 0 obj\n" + body + "\nendobj\n")
}

// stream writes object num as a Flate-compressed stream; dict holds any
// entries besides /Length and /Filter, without the << >>.
func (d *pdfDoc) stream(num int, dict string, data []byte) {
	d.zbuf.Reset()
	d.zw.Reset(&d.zbuf)
	d.zw.Write(data)
	d.zw.Close()
	d.offsets[num] = d.n
	d.raw(strconv.Itoa(num) + " 0 obj\n<< " + dict + " /Length " + strconv.Itoa(d.zbuf.Len()) +
		" /Filter /FlateDecode >>\nstream\n")
	d.rawBytes(d.zbuf.Bytes())
	d.raw("\nendstream\nendobj\n")
}

// compressedStream writes object num as a stream already compressed
// with zlib.
func (d *pdfDoc) compressedStream(num int, dict string, z []byte) {
	d.offsets[num] = d.n
	d.raw(strconv.Itoa(num) + " 0 obj\n<< " + dict + " /Length " + strconv.Itoa(len(z)) +
		" /Filter /FlateDecode >>\nstream\n")
	d.rawBytes(z)
	d.raw("\nendstream\nendobj\n")
}

// finish writes the cross-reference table and trailer and flushes.
func (d *pdfDoc) finish(root, info int) error {
	xref := d.n
	var b bytes.Buffer
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f\r\n", len(d.offsets))
	for _, off := range d.offsets[1:] {
		fmt.Fprintf(&b, "%010d 00000 n\r\n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n",
		len(d.offsets), root, info, xref)
	d.rawBytes(b.Bytes())
	if d.err != nil {
		return d.err
	}
	return d.w.Flush()
}

// pdfString returns s as a PDF literal string in WinAnsi encoding.
func pdfString(s string) string {
	var b []byte
	return string(appendPDFString(b, s))
}

// appendPDFString appends s as a PDF literal string in WinAnsi encoding;
// characters WinAnsi lacks become '?'.
func appendPDFString(b []byte, s string) []byte {
	b = append(b, '(')
	for _, r := range s {
		c := winAnsiByte(r)
		switch c {
		case '(', ')', '\\':
			b = append(b, '\\', c)
		default:
			if c < 32 || c >= 127 {
				b = append(b, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, ')')
}

// winAnsiHigh maps WinAnsi codes 128-159 to Unicode; 0 marks a gap.
var winAnsiHigh = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// winAnsiRune returns the character of WinAnsi code c, or 0 for none.
func winAnsiRune(c int) rune {
	switch {
	case c >= 32 && c < 127, c >= 160 && c < 256:
		return rune(c)
	case c >= 128 && c < 160:
		return winAnsiHigh[c-128]
	}
	return 0
}

// pdfUTF16 returns s as a PDF text string in UTF-16BE with its byte
// order mark, the form viewers read for any script.
func pdfUTF16(s string) string {
	b := []byte("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		b = fmt.Appendf(b, "%04X", u)
	}
	return string(append(b, '>'))
}

// winAnsiOK reports whether WinAnsi encodes every character of s.
func winAnsiOK(s string) bool {
	for _, r := range s {
		if r != '?' && winAnsiByte(r) == '?' {
			return false
		}
	}
	return true
}

// winAnsiByte returns the WinAnsi code of r, or '?' if it has none.
func winAnsiByte(r rune) byte {
	switch {
	case r >= 32 && r < 127, r >= 160 && r < 256:
		return byte(r)
	case r == '\t' || r == '\n' || r == '\r':
		return ' '
	}
	for i, h := range winAnsiHigh {
		if h == r && h != 0 {
			return byte(128 + i)
		}
	}
	return '?'
}

// pdfFont is a TrueType font to embed, with its metrics in PDF glyph
// space (1000 units to the em).
type pdfFont struct {
	name      string // PostScript name
	label     string // the name a person knows it by
	sfnt      *sfnt.Font
	ttf       []byte
	zttf      []byte   // ttf compressed once, at the best level, for every PDF
	widths    [256]int // advance of each WinAnsi code; 0 where it has none
	bbox      [4]int
	ascent    int
	descent   int // negative, below the baseline
	capHeight int
	digitTop  int // highest point of the digits 1-9
	stemV     int
}

// width returns the width of s set in this font at size points.
func (f *pdfFont) width(s string, size float64) float64 {
	w := 0
	if winAnsiOK(s) {
		for _, r := range s {
			w += f.widths[winAnsiByte(r)]
		}
	} else {
		for _, r := range s {
			_, adv := f.glyph(r)
			w += adv
		}
	}
	return float64(w) * size / 1000
}

// glyph returns the font's glyph for r and its advance in glyph space;
// 0 is the font's "missing" glyph.
func (f *pdfFont) glyph(r rune) (gid uint16, adv int) {
	var buf sfnt.Buffer
	gi, err := f.sfnt.GlyphIndex(&buf, r)
	if err != nil || gi == 0 {
		return 0, 0
	}
	a, err := f.sfnt.GlyphAdvance(&buf, gi, fixed.I(1000), font.HintingNone)
	if err != nil {
		return uint16(gi), 0
	}
	return uint16(gi), int((a + 32) >> 6)
}

// covers returns an error naming the first character of s the font has
// no glyph for, or a control character (newlines allowed when lines).
func (f *pdfFont) covers(s string, lines bool) error {
	for _, r := range s {
		switch {
		case lines && (r == '\n' || r == '\r'):
		case unicode.IsControl(r):
			return fmt.Errorf("character U+%04X is a control character", r)
		case unicode.IsSpace(r):
		default:
			if gid, _ := f.glyph(r); gid == 0 {
				return fmt.Errorf("character U+%04X %q is not in the embedded font (%s)", r, r, f.label)
			}
		}
	}
	return nil
}

// goFonts loads the two Go fonts the book uses, once.
var goFonts = sync.OnceValues(func() ([2]*pdfFont, error) {
	regular, err := loadFont(goregular.TTF, "Go Regular", 80)
	if err != nil {
		return [2]*pdfFont{}, fmt.Errorf("load Go Regular: %w", err)
	}
	bold, err := loadFont(gobold.TTF, "Go Bold", 140)
	if err != nil {
		return [2]*pdfFont{}, fmt.Errorf("load Go Bold: %w", err)
	}
	return [2]*pdfFont{regular, bold}, nil
})

// loadFont reads the metrics PDF needs from a TrueType font.
func loadFont(ttf []byte, label string, stemV int) (*pdfFont, error) {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		return nil, err
	}
	var buf sfnt.Buffer
	name, err := f.Name(&buf, sfnt.NameIDPostScript)
	if err != nil {
		return nil, fmt.Errorf("postscript name: %w", err)
	}
	// At 1000 pixels to the em, sfnt's 26.6 fixed-point values are PDF
	// glyph-space units times 64.
	ppem := fixed.I(1000)
	units := func(v fixed.Int26_6) int { return int((v + 32) >> 6) }
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(ttf)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	pf := &pdfFont{name: name, label: label, sfnt: f, ttf: ttf, zttf: z.Bytes(), stemV: stemV}
	for c := 32; c < 256; c++ {
		r := winAnsiRune(c)
		if r == 0 {
			continue
		}
		gi, err := f.GlyphIndex(&buf, r)
		if err != nil || gi == 0 {
			continue
		}
		adv, err := f.GlyphAdvance(&buf, gi, ppem, font.HintingNone)
		if err != nil {
			return nil, fmt.Errorf("advance of %q: %w", r, err)
		}
		pf.widths[c] = units(adv)
	}
	pf.widths['?'] = max(pf.widths['?'], 1)
	b, err := f.Bounds(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	// sfnt's y axis points down; PDF's points up.
	pf.bbox = [4]int{units(b.Min.X), -units(b.Max.Y), units(b.Max.X), -units(b.Min.Y)}
	m, err := f.Metrics(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	pf.ascent, pf.descent, pf.capHeight = units(m.Ascent), -units(m.Descent), units(m.CapHeight)
	for r := '1'; r <= '9'; r++ {
		gi, err := f.GlyphIndex(&buf, r)
		if err != nil {
			return nil, err
		}
		gb, _, err := f.GlyphBounds(&buf, gi, ppem, font.HintingNone)
		if err != nil {
			return nil, err
		}
		pf.digitTop = max(pf.digitTop, -units(gb.Min.Y))
	}
	return pf, nil
}

// embed writes the font's dictionary, descriptor and file, and returns
// the object numbers of the font dictionary and of the file.
func (d *pdfDoc) embed(f *pdfFont) (fontObj, fileObj int) {
	fontObj = d.alloc()
	descObj := d.alloc()
	fileObj = d.alloc()
	var w bytes.Buffer
	for c := 32; c < 256; c++ {
		if c > 32 {
			w.WriteByte(' ')
		}
		w.WriteString(strconv.Itoa(f.widths[c]))
	}
	d.object(fontObj, fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /%s /FirstChar 32 /LastChar 255\n"+
		"/Widths [%s]\n/Encoding /WinAnsiEncoding /FontDescriptor %d 0 R >>", f.name, w.String(), descObj))
	// Flags 32: non-symbolic, so viewers map WinAnsi codes through the
	// font's Unicode cmap.
	d.object(descObj, fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 32 /FontBBox [%d %d %d %d]\n"+
		"/ItalicAngle 0 /Ascent %d /Descent %d /CapHeight %d /StemV %d /MissingWidth %d /FontFile2 %d 0 R >>",
		f.name, f.bbox[0], f.bbox[1], f.bbox[2], f.bbox[3], f.ascent, f.descent, f.capHeight, f.stemV,
		f.widths['?'], fileObj))
	d.compressedStream(fileObj, "/Length1 "+strconv.Itoa(len(f.ttf)), f.zttf)
	return fontObj, fileObj
}

// embedType0 writes object num as a Type0 font over the font file
// fileObj (already embedded), addressing glyphs by id (Identity-H), with
// the widths and a ToUnicode map of the glyphs used: glyph id to text.
func (d *pdfDoc) embedType0(num int, f *pdfFont, fileObj int, used map[uint16]rune) {
	cidObj, descObj, cmapObj := d.alloc(), d.alloc(), d.alloc()
	gids := make([]uint16, 0, len(used))
	for g := range used {
		gids = append(gids, g)
	}
	slices.Sort(gids)
	var w, m strings.Builder
	for _, g := range gids {
		_, adv := f.glyph(used[g])
		fmt.Fprintf(&w, "%d [%d] ", g, adv)
	}
	d.object(num, fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>",
		f.name, cidObj, cmapObj))
	d.object(cidObj, fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s\n"+
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>\n"+
		"/FontDescriptor %d 0 R /CIDToGIDMap /Identity /DW 1000 /W [%s] >>", f.name, descObj, strings.TrimSpace(w.String())))
	// Flags 4: symbolic, as a font addressed by glyph id is.
	d.object(descObj, fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [%d %d %d %d]\n"+
		"/ItalicAngle 0 /Ascent %d /Descent %d /CapHeight %d /StemV %d /FontFile2 %d 0 R >>",
		f.name, f.bbox[0], f.bbox[1], f.bbox[2], f.bbox[3], f.ascent, f.descent, f.capHeight, f.stemV, fileObj))
	m.WriteString("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n" +
		"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n")
	// A bfchar block holds at most 100 entries.
	for i := 0; i < len(gids); i += 100 {
		block := gids[i:min(i+100, len(gids))]
		fmt.Fprintf(&m, "%d beginbfchar\n", len(block))
		for _, g := range block {
			fmt.Fprintf(&m, "<%04X> <", g)
			for _, u := range utf16.Encode([]rune{used[g]}) {
				fmt.Fprintf(&m, "%04X", u)
			}
			m.WriteString(">\n")
		}
		m.WriteString("endbfchar\n")
	}
	m.WriteString("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")
	d.stream(cmapObj, "", []byte(m.String()))
}

// content builds one page's content stream.
type content struct {
	b      []byte
	tx, ty int64 // the text line origin in 1/100 pt, inside BT..ET
}

func (c *content) reset() { c.b = c.b[:0] }

// hundredths rounds x to 1/100 point, far below what a printer resolves.
func hundredths(x float64) int64 {
	if x < 0 {
		return int64(x*100 - 0.5)
	}
	return int64(x*100 + 0.5)
}

// num appends x, rounded to 1/100 point, and a space.
func (c *content) num(x float64) { c.hnum(hundredths(x)) }

// hnum appends v/100 with no trailing zeros, and a space.
func (c *content) hnum(v int64) {
	if v < 0 {
		c.b = append(c.b, '-')
		v = -v
	}
	c.b = strconv.AppendInt(c.b, v/100, 10)
	if frac := v % 100; frac != 0 {
		c.b = append(c.b, '.', byte('0'+frac/10))
		if frac%10 != 0 {
			c.b = append(c.b, byte('0'+frac%10))
		}
	}
	c.b = append(c.b, ' ')
}

func (c *content) op(s string) { c.b = append(c.b, s...); c.b = append(c.b, '\n') }

// lineWidth sets the stroke width.
func (c *content) lineWidth(w float64) { c.num(w); c.op("w") }

// gray sets the fill and stroke gray level, 0 black to 1 white.
func (c *content) gray(g float64) { c.num(g); c.op("g"); c.num(g); c.op("G") }

// segment adds a straight line to the current path; op("S") strokes it.
func (c *content) segment(x1, y1, x2, y2 float64) {
	c.num(x1)
	c.num(y1)
	c.b = append(c.b, "m "...)
	c.num(x2)
	c.num(y2)
	c.op("l")
}

// rect strokes a rectangle.
func (c *content) rect(x, y, w, h float64) {
	c.num(x)
	c.num(y)
	c.num(w)
	c.num(h)
	c.op("re S")
}

// selectFont appends the operator choosing /F<font+1> at size points.
func (c *content) selectFont(font int, size float64) {
	c.b = append(c.b, "/F"...)
	c.b = strconv.AppendInt(c.b, int64(font+1), 10)
	c.b = append(c.b, ' ')
	c.num(size)
	c.b = append(c.b, "Tf "...)
}

// text sets s with its baseline starting at (x, y) in font /F<font+1>.
func (c *content) text(font int, size, x, y float64, s string) {
	c.b = append(c.b, "BT "...)
	c.selectFont(font, size)
	c.num(x)
	c.num(y)
	c.b = append(c.b, "Td "...)
	c.b = appendPDFString(c.b, s)
	c.b = append(c.b, " Tj ET\n"...)
}

// glyphText sets the glyphs gids (two bytes each, for an Identity-H
// font) with their baseline starting at (x, y) in font /F<font+1>.
func (c *content) glyphText(font int, size, x, y float64, gids []uint16) {
	c.b = append(c.b, "BT "...)
	c.selectFont(font, size)
	c.num(x)
	c.num(y)
	c.b = append(c.b, "Td <"...)
	for _, g := range gids {
		c.b = fmt.Appendf(c.b, "%04X", g)
	}
	c.b = append(c.b, "> Tj ET\n"...)
}

// beginText opens a text object in which glyph and glyphs set values.
func (c *content) beginText(font int, size float64) {
	c.b = append(c.b, "BT "...)
	c.selectFont(font, size)
	c.b = append(c.b, '\n')
	c.tx, c.ty = 0, 0
}

// glyph sets the character ch (a digit or letter) with its baseline
// starting at (x, y). Td moves relative to the last line origin; keeping
// that origin in whole hundredths makes the moves exact, so rounding
// never accumulates.
func (c *content) glyph(x, y float64, ch byte) {
	c.moveTo(x, y)
	c.b = append(c.b, "Td ("...)
	c.b = append(c.b, ch)
	c.b = append(c.b, ") Tj\n"...)
}

// glyphs sets s, digits or letters only, as glyph sets one.
func (c *content) glyphs(x, y float64, s string) {
	c.moveTo(x, y)
	c.b = append(c.b, "Td ("...)
	c.b = append(c.b, s...)
	c.b = append(c.b, ") Tj\n"...)
}

// moveTo appends the operands of a Td to (x, y).
func (c *content) moveTo(x, y float64) {
	hx, hy := hundredths(x), hundredths(y)
	c.hnum(hx - c.tx)
	c.hnum(hy - c.ty)
	c.tx, c.ty = hx, hy
}

// endText closes the text object beginText opened.
func (c *content) endText() { c.op("ET") }
