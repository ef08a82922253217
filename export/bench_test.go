package export_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/export"
	"sudokubank/grid"
)

// countingWriter counts the bytes written to it and drops them.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkWrite writes a pack of 10,000 puzzles in each format to a
// discarding writer: the cost of formatting, without the disk.
func BenchmarkWrite(b *testing.B) {
	const n = 10000
	items := MustManyItems(b, n)
	opt := export.Options{Title: "Benchmark", PDF: export.PDFOptions{Page: "letter", PerPage: 4}}
	for _, f := range export.Formats {
		b.Run(strings.ToUpper(string(f)), func(b *testing.B) {
			var w countingWriter
			for b.Loop() {
				if err := export.Write(context.Background(), &w, f, items, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
			b.ReportMetric(float64(w.n)/float64(b.N), "bytes/pack")
		})
	}
}

// BenchmarkWriteFile writes the 10,000-puzzle pack to a real file, fsync
// and rename included, as the export command does.
func BenchmarkWriteFile(b *testing.B) {
	const n = 10000
	items := MustManyItems(b, n)
	opt := export.Options{Title: "Benchmark", PDF: export.PDFOptions{Page: "letter", PerPage: 4}}
	for _, f := range []export.Format{export.SDM, export.PDF} {
		b.Run(strings.ToUpper(string(f)), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "pack")
			for b.Loop() {
				if err := export.WriteFile(context.Background(), path, f, items, opt, true); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}

var _ io.Writer = (*countingWriter)(nil)

// BenchmarkWriteSized writes 1,000 puzzles of each size as csv, json and
// pdf.
func BenchmarkWriteSized(b *testing.B) {
	const n = 1000
	for _, s := range grid.Shapes {
		items := MustSizedItems(b, s, n)
		for _, f := range []export.Format{export.CSV, export.JSON, export.PDF} {
			b.Run(fmt.Sprintf("%dx%d/%s", s.N, s.N, strings.ToUpper(string(f))), func(b *testing.B) {
				var w countingWriter
				for b.Loop() {
					if err := export.Write(context.Background(), &w, f, items, export.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
			})
		}
	}
}
