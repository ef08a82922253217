package store

import (
	"database/sql/driver"
	"fmt"
	"sync"

	"modernc.org/sqlite"
)

// Families are unique by canon_key, an integer key of their canonical
// form (migrations/0008), the way puzzles are by their sort key (0003):
// an index entry of about 17 bytes instead of the 81-character form's
// 92, so the index is about a fifth the size, builds in a fraction of
// the time, and a big bank's random inserts dirty about a fifth as many
// pages. The store compares the
// forms themselves: a form whose key another form holds takes the first
// free key of its window (see window), and a lookup by form searches the
// window, never the table.

// canonKey is the key a canonical form hashes to: SortKeyOf of the form,
// a 63-bit FNV-1a hash with SplitMix64's finaliser, never zero. It is
// stored in every bank (canon_key, as sort keys are), so it must give the
// same key in every process and every version; maphash, seeded at random
// per process, would not. A test swaps in one that collides, before it
// prepares the families it writes: Prepare computes their keys.
var canonKey = SortKeyOf

// canonKeyFunc is the SQL function, canonKey of its text argument, that
// the store registers for its own connections, so that migration 0008
// fills the keys of a bank's families in one statement instead of a
// round trip a row. Nothing in the schema refers to it: a bank stays
// readable by any SQLite.
const canonKeyFunc = "sudokubank_canon_key"

// registerCanonKey registers canonKeyFunc on the "sqlite" driver, once
// per process, for the connections opened after it.
var registerCanonKey = sync.OnceValue(func() error {
	err := sqlite.RegisterDeterministicScalarFunction(canonKeyFunc, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		s, ok := args[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s of a %T, want text", canonKeyFunc, args[0])
		}
		return canonKey(s), nil
	})
	if err != nil {
		return fmt.Errorf("register %s: %w", canonKeyFunc, err)
	}
	return nil
})
