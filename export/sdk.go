package export

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"
)

// dateOr returns d, or Epoch when d is zero, in UTC.
func dateOr(d time.Time) time.Time {
	if d.IsZero() {
		return Epoch
	}
	return d.UTC()
}

// writeSDK writes one .sdk file, or a zip of them for more than one puzzle.
func writeSDK(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	if len(ps) <= 1 && !opt.SDKZip {
		bw := bufio.NewWriter(w)
		for _, p := range ps {
			writeSDKPuzzle(bw, p, opt)
		}
		return bw.Flush()
	}
	return writeSDKZip(ctx, w, ps, opt)
}

// SDKName returns the name of the .sdk file of the puzzle numbered n in
// a pack whose highest number is top: n with at least four digits, and
// as many as top has, so that the names sort in pack order.
func SDKName(n, top int) string {
	width := max(4, len(strconv.Itoa(top)))
	return fmt.Sprintf("%0*d.sdk", width, n)
}

// writeSDKZip writes a zip archive of one .sdk file per puzzle. Every
// file gets the same time and mode, so the archive's bytes depend on the
// pack alone.
func writeSDKZip(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	top := 0
	for _, p := range ps {
		top = max(top, p.Number)
	}
	names := make(map[string]bool, len(ps))
	mtime := dateOr(opt.Date).Truncate(time.Second)
	zw := zip.NewWriter(w)
	var buf bytes.Buffer
	for i, p := range ps {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		name := SDKName(p.Number, top)
		if names[name] {
			return fmt.Errorf("item %d: number %d given twice (a zip member per number)", i+1, p.Number)
		}
		names[name] = true
		fh := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mtime}
		fh.SetMode(0o644)
		f, err := zw.CreateHeader(fh)
		if err != nil {
			return err
		}
		buf.Reset()
		bw := bufio.NewWriter(&buf)
		writeSDKPuzzle(bw, p, opt)
		bw.Flush()
		if _, err := f.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSDKPuzzle writes one puzzle, 9x9 (Write checks), as an .sdk
// file: its header lines, then its 9 rows.
func writeSDKPuzzle(bw *bufio.Writer, p parsed, opt Options) {
	minimal := "no"
	if p.Minimal {
		minimal = "yes"
	}
	if opt.Author != "" {
		bw.WriteString("#A" + oneLine(opt.Author) + "\n")
	}
	desc := "Puzzle " + strconv.Itoa(p.Number) + " (id " + strconv.FormatInt(p.ID, 10) +
		", family " + strconv.FormatInt(p.Family, 10) + ")"
	if opt.Title != "" {
		desc = oneLine(opt.Title) + ": p" + desc[1:]
	}
	bw.WriteString("#D" + desc + "\n")
	bw.WriteString("#CER " + ratingText(p.Rating) + "; EP " + ratingText(p.Pearl) + "; ED " + ratingText(p.Diamond) +
		"; score " + scoreText(p.Score) + "; givens " + strconv.Itoa(p.Givens) +
		"; hardest " + orDash(oneLine(p.Hardest)) + "; symmetry " + orDash(oneLine(p.Symmetry)) +
		"; minimal " + minimal + "\n")
	if !opt.Date.IsZero() {
		bw.WriteString("#B" + opt.Date.UTC().Format(time.DateOnly) + "\n")
	}
	bw.WriteString("#L" + orDash(oneLine(p.LevelName)) + "\n")
	source := p.Source
	if opt.SourceName != "" {
		source = opt.SourceName
	}
	bw.WriteString("#S" + orDash(oneLine(source)) + "\n")
	if opt.URL != "" {
		bw.WriteString("#U" + oneLine(opt.URL) + "\n")
	}
	s := cells(p.puzzle, '.')
	for r := 0; r < 9; r++ {
		bw.WriteString(s[r*9 : r*9+9])
		bw.WriteByte('\n')
	}
}
