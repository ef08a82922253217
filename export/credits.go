package export

import (
	"errors"
	"fmt"
	"net/url"
	"time"
)

// MaxURLLen bounds Options.URL, as browsers and servers commonly do.
const MaxURLLen = 2000

// CheckURL reports whether s may be a pack's URL (Options.URL): an
// absolute http or https address with a host, of at most MaxURLLen
// bytes, without spaces or control characters (it is printed on one
// line, and in csv a spreadsheet may open it).
func CheckURL(s string) error {
	if len(s) > MaxURLLen {
		return fmt.Errorf("%d bytes long, at most %d", len(s), MaxURLLen)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f {
			return fmt.Errorf("byte %d is a space or control character (write a space as %%20)", i+1)
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("want an http:// or https:// address")
	}
	if u.Host == "" {
		return errors.New("no host")
	}
	return nil
}

// CheckDate reports whether d may be a pack's date (Options.Date): zero,
// or a time in the years a zip file can record, 1980 to 2107.
func CheckDate(d time.Time) error {
	if d.IsZero() {
		return nil
	}
	if y := d.UTC().Year(); y < 1980 || y > 2107 {
		return fmt.Errorf("year %d: want 1980 to 2107 (what a zip file can record)", y)
	}
	return nil
}
