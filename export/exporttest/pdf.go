// Package exporttest holds helpers for tests that check what package
// export wrote: it reads back the text a PDF shows. It is for tests only.
package exporttest

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	streamRE = regexp.MustCompile(`(?s)<<([^<>]*(?:<<[^<>]*>>[^<>]*)*)>>\nstream\n`)
	lengthRE = regexp.MustCompile(`/Length (\d+)`)
	tjRE     = regexp.MustCompile(`\(((?:\\.|[^\\)])*)\) Tj`)
)

// PDFTexts returns the strings shown by the PDF's content streams, in
// order, by inflating every Flate stream that is not a font file. It
// understands the PDFs package export writes, not PDF in general.
func PDFTexts(tb testing.TB, pdf []byte) []string {
	tb.Helper()
	var texts []string
	for _, m := range streamRE.FindAllSubmatchIndex(pdf, -1) {
		dict := string(pdf[m[2]:m[3]])
		if strings.Contains(dict, "/Length1") {
			continue // a font file
		}
		lm := lengthRE.FindStringSubmatch(dict)
		if lm == nil {
			tb.Fatalf("stream without /Length: %s", dict)
		}
		n, _ := strconv.Atoi(lm[1])
		zr, err := zlib.NewReader(bytes.NewReader(pdf[m[1] : m[1]+n]))
		if err != nil {
			tb.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			tb.Fatal(err)
		}
		for _, tm := range tjRE.FindAllSubmatch(data, -1) {
			texts = append(texts, string(tm[1]))
		}
	}
	return texts
}
