package store

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxNameLen bounds, in bytes, a name the bank records: a pack's name, a
// client, a family's source.
const MaxNameLen = 200

// CheckName reports why s cannot be a name the bank records or a command
// prints as one (a pack, a client, a source, a title), or nil if it can.
// A name is valid UTF-8 of at most MaxNameLen bytes without control
// characters, line or paragraph separators, or invisible format
// characters: a newline in a pack's name would forge a row of a listing,
// and a bidirectional override would make it print as another name. The
// joiners U+200C and U+200D stay allowed, since Persian and Indic
// writing needs them. Whether "" is allowed is the caller's rule (an
// empty client means none). The error wraps ErrInvalid and shows the
// offending character's code, not the name, which may not print.
func CheckName(s string) error {
	if len(s) > MaxNameLen {
		return fmt.Errorf("%d bytes long, at most %d: %w", len(s), MaxNameLen, ErrInvalid)
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Errorf("byte %d is not UTF-8: %w", i+1, ErrInvalid)
			}
		}
		if !nameRune(r) {
			return fmt.Errorf("character %U at byte %d is a control or format character: %w", r, i+1, ErrInvalid)
		}
	}
	return nil
}

// nameRune reports whether r may appear in a name.
func nameRune(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return false
	case r < 0x80:
		return true
	case r == 0x200c || r == 0x200d: // zero-width non-joiner and joiner
		return true
	case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp):
		return false
	}
	return true
}
