// Package exporttest holds helpers for tests that check what package
// export wrote: it reads back a PDF's pages, their boxes, the text they
// show and the rectangles they draw. It is for tests only.
package exporttest

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// PDF is a PDF as the tests see it.
type PDF struct {
	Title string // the document information's title, decoded
	Pages []Page
}

// Page is one page: its boxes as [x0 y0 x1 y1] in points, and what it
// draws, in order.
type Page struct {
	MediaBox, TrimBox, BleedBox [4]float64 // BleedBox is zero when absent
	Texts                       []Text
	Rects                       []Rect
	Content                     []byte // the content stream, inflated
}

// Text is a string shown on a page, decoded to UTF-8, with where its
// baseline starts, its font resource ("F1") and its size.
type Text struct {
	S          string
	X, Y, Size float64
	Font       string
}

// Rect is a rectangle drawn with the re operator.
type Rect struct{ X, Y, W, H float64 }

var (
	objRE     = regexp.MustCompile(`(?m)^(\d+) 0 obj\n`)
	refRE     = regexp.MustCompile(`/(\w+) (\d+) 0 R`)
	boxRE     = regexp.MustCompile(`/(Media|Trim|Bleed)Box \[([-\d. ]+)\]`)
	kidsRE    = regexp.MustCompile(`/Kids \[([\d R]*)\]`)
	fontMapRE = regexp.MustCompile(`/Font << ([^>]*) >>`)
	bfcharRE  = regexp.MustCompile(`<([0-9A-Fa-f]+)> <([0-9A-Fa-f]+)>`)
	infoRE    = regexp.MustCompile(`/Info (\d+) 0 R`)
	titleRE   = regexp.MustCompile(`/Title (<[0-9A-Fa-f]*>|\((?:\\.|[^\\)])*\))`)
)

// object is one numbered object: its dictionary and, for a stream, its
// data inflated (nil for font files, which tests do not read).
type object struct {
	dict string
	data []byte
}

// ReadPDF reads the PDFs package export writes; it does not read PDF in
// general.
func ReadPDF(tb testing.TB, pdf []byte) PDF {
	tb.Helper()
	objs := map[string]object{}
	locs := objRE.FindAllSubmatchIndex(pdf, -1)
	for _, m := range locs {
		num := string(pdf[m[2]:m[3]])
		body := pdf[m[1]:]
		end := bytes.Index(body, []byte("\nendobj\n"))
		si := bytes.Index(body, []byte(">>\nstream\n"))
		if si < 0 || si > end {
			objs[num] = object{dict: string(body[:end])}
			continue
		}
		dict := string(body[:si+2])
		o := object{dict: dict}
		if !strings.Contains(dict, "/Length1") {
			lm := regexp.MustCompile(`/Length (\d+)`).FindStringSubmatch(dict)
			if lm == nil {
				tb.Fatalf("object %s: stream without /Length", num)
			}
			n, _ := strconv.Atoi(lm[1])
			start := si + len(">>\nstream\n")
			zr, err := zlib.NewReader(bytes.NewReader(body[start : start+n]))
			if err != nil {
				tb.Fatalf("object %s: %v", num, err)
			}
			if o.data, err = io.ReadAll(zr); err != nil {
				tb.Fatalf("object %s: %v", num, err)
			}
		}
		objs[num] = o
	}

	var doc PDF
	if m := infoRE.FindSubmatch(pdf); m != nil {
		if t := titleRE.FindStringSubmatch(objs[string(m[1])].dict); t != nil {
			doc.Title = decodeString(t[1], nil)
		}
	}
	var kids []string
	for _, o := range objs {
		if strings.Contains(o.dict, "/Type /Pages") {
			km := kidsRE.FindStringSubmatch(o.dict)
			for _, f := range strings.Fields(km[1]) {
				if f != "0" && f != "R" {
					kids = append(kids, f)
				}
			}
		}
	}
	for _, k := range kids {
		o := objs[k]
		var p Page
		for _, bm := range boxRE.FindAllStringSubmatch(o.dict, -1) {
			var b [4]float64
			for i, f := range strings.Fields(bm[2]) {
				b[i], _ = strconv.ParseFloat(f, 64)
			}
			switch bm[1] {
			case "Media":
				p.MediaBox = b
			case "Trim":
				p.TrimBox = b
			case "Bleed":
				p.BleedBox = b
			}
		}
		// The fonts' ToUnicode maps, for text set by glyph id.
		cmaps := map[string]map[string]string{}
		if fm := fontMapRE.FindStringSubmatch(o.dict); fm != nil {
			for _, r := range refRE.FindAllStringSubmatch(fm[1], -1) {
				font := objs[r[2]].dict
				for _, fr := range refRE.FindAllStringSubmatch(font, -1) {
					if fr[1] == "ToUnicode" {
						cm := map[string]string{}
						for _, e := range bfcharRE.FindAllSubmatch(objs[fr[2]].data, -1) {
							cm[strings.ToUpper(string(e[1]))] = string(e[2])
						}
						cmaps[r[1]] = cm
					}
				}
			}
		}
		for _, r := range refRE.FindAllStringSubmatch(o.dict, -1) {
			if r[1] == "Contents" {
				p.Texts, p.Rects = readContent(tb, objs[r[2]].data, cmaps)
				p.Content = objs[r[2]].data
			}
		}
		doc.Pages = append(doc.Pages, p)
	}
	return doc
}

// readContent runs the operators of a content stream that place text
// and rectangles.
func readContent(tb testing.TB, data []byte, cmaps map[string]map[string]string) ([]Text, []Rect) {
	tb.Helper()
	var (
		texts      []Text
		rects      []Rect
		stack      []string
		font       string
		size, x, y float64
	)
	num := func(i int) float64 {
		v, err := strconv.ParseFloat(stack[len(stack)-i], 64)
		if err != nil {
			tb.Fatalf("operand %q: %v", stack[len(stack)-i], err)
		}
		return v
	}
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == '<':
			end := i + 1
			if c == '(' {
				for data[end] != ')' {
					if data[end] == '\\' {
						end++
					}
					end++
				}
			} else {
				end = i + bytes.IndexByte(data[i:], '>')
			}
			stack = append(stack, string(data[i:end+1]))
			i = end + 1
		default:
			end := i
			for end < len(data) && data[end] != ' ' && data[end] != '\n' && data[end] != '(' && data[end] != '<' {
				end++
			}
			tok := string(data[i:end])
			i = end
			switch tok {
			case "BT":
				x, y = 0, 0
			case "Tf":
				font, size = strings.TrimPrefix(stack[len(stack)-2], "/"), num(1)
			case "Td":
				x, y = x+num(2), y+num(1)
			case "Tj":
				texts = append(texts, Text{S: decodeString(stack[len(stack)-1], cmaps[font]), X: x, Y: y, Size: size, Font: font})
			case "re":
				rects = append(rects, Rect{num(4), num(3), num(2), num(1)})
			}
			if len(tok) > 0 && (tok[0] == '/' || tok[0] == '-' || tok[0] == '.' || tok[0] >= '0' && tok[0] <= '9') {
				stack = append(stack, tok)
			} else {
				stack = stack[:0]
			}
		}
	}
	return texts, rects
}

// decodeString decodes a PDF string: a literal in WinAnsi, a hex string
// of glyph ids through cmap, or without one UTF-16BE after FE FF.
func decodeString(s string, cmap map[string]string) string {
	if s[0] == '<' {
		h := strings.ToUpper(s[1 : len(s)-1])
		if cmap == nil {
			b, _ := hex.DecodeString(strings.TrimPrefix(h, "FEFF"))
			return utf16BE(b)
		}
		var out strings.Builder
		for i := 0; i+4 <= len(h); i += 4 {
			u, ok := cmap[h[i:i+4]]
			if !ok {
				out.WriteRune('\uFFFD')
				continue
			}
			b, _ := hex.DecodeString(u)
			out.WriteString(utf16BE(b))
		}
		return out.String()
	}
	var out strings.Builder
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if c == '\\' {
			i++
			c = s[i]
			if c >= '0' && c <= '7' {
				v, _ := strconv.ParseUint(s[i:i+3], 8, 8)
				c = byte(v)
				i += 2
			}
		}
		out.WriteRune(winAnsi(c))
	}
	return out.String()
}

func utf16BE(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return string(utf16.Decode(u))
}

// winAnsiHigh maps WinAnsi codes 128-159 to Unicode.
var winAnsiHigh = [32]rune{
	0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
	0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
}

func winAnsi(c byte) rune {
	if c >= 128 && c < 160 {
		return winAnsiHigh[c-128]
	}
	return rune(c)
}

// PDFTexts returns the strings the PDF's pages show, in order, decoded
// to UTF-8.
func PDFTexts(tb testing.TB, pdf []byte) []string {
	tb.Helper()
	var texts []string
	for _, p := range ReadPDF(tb, pdf).Pages {
		for _, t := range p.Texts {
			texts = append(texts, t.S)
		}
	}
	return texts
}
