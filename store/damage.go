package store

import (
	"errors"
	"fmt"
	"strings"
)

// DamagedError is a bank found damaged: its pages fail SQLite's quick
// check, a read meets SQLITE_CORRUPT, or a stored value does not read as
// the schema says. It is ErrDamaged to errors.Is.
type DamagedError struct {
	Path string // the bank's file
	Err  error  // what was found
}

// Error names the file and the command that lists all that is wrong.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s is damaged (%v): run %s", e.Path, e.Err, e.Check())
}

// Check returns the command that lists all that is wrong with the file.
func (e *DamagedError) Check() string {
	return "bankquery check -db " + shellQuote(e.Path)
}

// Unwrap returns ErrDamaged and what was found.
func (e *DamagedError) Unwrap() []error { return []error{ErrDamaged, e.Err} }

// Damaged returns err, met while using the bank at path, as a
// DamagedError if it says the file is damaged (SQLite's SQLITE_CORRUPT
// or SQLITE_NOTADB, or a stored value that does not read as its column's
// type) and is not one already; any other err, nil included, is
// returned as it is. A command calls it on the error it ends with, so
// that damage any read meets reaches the user as such.
func Damaged(path string, err error) error {
	var d *DamagedError
	if err == nil || errors.As(err, &d) || !isCorrupt(err) && !badValue(err) {
		return err
	}
	return &DamagedError{Path: path, Err: err}
}

// badValue reports whether err holds database/sql's failure to read a
// stored value into the type its column has: the store wrote every value
// it reads, so one that does not read was changed under it. database/sql
// gives the failure no type of its own, so its words are matched.
func badValue(err error) bool {
	return strings.Contains(err.Error(), "sql: Scan error on column")
}

// damagedValue returns err, a stored value of the bank at path that does
// not read as the schema says (a scan or a decode that failed), as a
// DamagedError: the store wrote every value it reads, so one that does
// not read was changed under it.
func damagedValue(path string, err error) error {
	var d *DamagedError
	if errors.As(err, &d) {
		return err
	}
	return &DamagedError{Path: path, Err: err}
}
