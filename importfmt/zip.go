package importfmt

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// readZip reads every file of a zip archive in the archive's order, each
// in the format its content shows. A file that cannot be read is one
// bad record; the others are read.
func readZip(ctx context.Context, r io.Reader, br *bufio.Reader, emit func(Record) bool) error {
	ra, size, err := randomAccess(r, br)
	if err != nil {
		return err
	}
	e := &emitter{ctx: ctx, emit: emit}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return e.bad(0, "a zip that cannot be read: %v", err)
	}
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return err
		}
		if strings.HasSuffix(f.Name, "/") || strings.HasPrefix(f.Name, "__MACOSX/") {
			continue
		}
		if err := readMember(ctx, f, emit); err != nil {
			return err
		}
	}
	return nil
}

// readMember reads one file of a zip; its reading errors are bad records
// of the whole file, which say what became of it: the error alone
// ("zip: checksum error") does not.
func readMember(ctx context.Context, f *zip.File, emit func(Record) bool) error {
	e := &emitter{ctx: ctx, member: f.Name, emit: emit}
	rc, err := f.Open()
	if err != nil {
		return e.bad(0, "cannot be read: %v", err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, sniffLen)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return e.bad(0, "cannot be read: %v", err)
	}
	if err := unread(head); err != nil {
		return e.bad(0, "%v", err)
	}
	format := Detect(head)
	if format == Zip {
		return e.bad(0, "a zip inside a zip is not read")
	}
	switch err := readAs(ctx, rc, br, format, f.Name, emit); err {
	case nil, errStop, ctx.Err():
		return err
	default:
		return e.bad(0, "cannot be read to its end: %v", err)
	}
}

// randomAccess returns r as a ReaderAt: a regular file as it is,
// anything else read into memory through br, up to MaxBuffered bytes.
func randomAccess(r io.Reader, br *bufio.Reader) (io.ReaderAt, int64, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return f, fi.Size(), nil
		}
	}
	if ra, ok := r.(interface {
		io.ReaderAt
		Size() int64
	}); ok {
		return ra, ra.Size(), nil
	}
	b, err := io.ReadAll(io.LimitReader(br, MaxBuffered+1))
	if err != nil {
		return nil, 0, fmt.Errorf("read the zip: %w", err)
	}
	if len(b) > MaxBuffered {
		return nil, 0, ErrZipTooBig
	}
	return bytes.NewReader(b), int64(len(b)), nil
}
