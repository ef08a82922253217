package pipeline

import (
	"context"
	"encoding/binary"
	"slices"

	"sudokubank/solve"
)

// Hash returns a 64-bit hash of a grid, for the dedup set. Two families of
// a bank of ten million collide with odds of about 3 in a million; the
// store, which compares the canonical forms, stays the authority.
func Hash(g solve.Grid) uint64 {
	h := uint64(0x5d0c_6b4a_1f2e_3d7c)
	for i := 0; i+8 <= len(g); i += 8 {
		h = mix(h ^ binary.LittleEndian.Uint64(g[i:i+8]))
	}
	return mix(h ^ uint64(g[80]))
}

// mergeAt is how many hashes the run's unsorted tier holds before it is
// sorted into the run's sorted tier.
const mergeAt = 1 << 15

// Seen is the set of canonical-form hashes of the families in the bank
// and of those admitted so far in this run. It costs 8 bytes per family
// plus a small map: about 80 MB for a bank of ten million.
//
// The bank's part is fixed when the run starts and may be read by any
// goroutine (InBank); the rest (Contains, Add) belongs to one goroutine,
// the collector.
type Seen struct {
	bank   []uint64            // sorted, never written after NewSeen
	run    []uint64            // sorted hashes admitted in this run
	recent map[uint64]struct{} // hashes admitted since the last merge into run
}

// NewSeen returns a set holding the given hashes of the bank's families.
// It takes ownership of the slice and sorts it.
func NewSeen(bank []uint64) *Seen {
	slices.Sort(bank)
	bank = slices.Compact(bank)
	return &Seen{bank: bank, recent: make(map[uint64]struct{})}
}

// loadSeen builds the set from every hash that each adds, typically of
// the store's canonical forms. sizeHint, the number of families in the
// bank if known, avoids growing the slice.
func loadSeen(ctx context.Context, sizeHint int, each func(ctx context.Context, add func(uint64)) error) (*Seen, error) {
	hs := make([]uint64, 0, max(sizeHint, 0))
	if err := each(ctx, func(h uint64) { hs = append(hs, h) }); err != nil {
		return nil, err
	}
	return NewSeen(hs), nil
}

// InBank reports whether h was in the bank when the run started. It is
// safe for concurrent use.
func (s *Seen) InBank(h uint64) bool {
	_, ok := slices.BinarySearch(s.bank, h)
	return ok
}

// forget takes the hashes hs out of the bank's part, before the run
// starts: a rerun of a job makes its earlier runs' families as they were
// first made, as new, and counts them without writing them (Resume).
func (s *Seen) forget(hs map[uint64]struct{}) {
	s.bank = slices.DeleteFunc(s.bank, func(h uint64) bool {
		_, ok := hs[h]
		return ok
	})
}

// bankEmpty reports whether the bank held no family when the run started.
// It is safe for concurrent use.
func (s *Seen) bankEmpty() bool { return len(s.bank) == 0 }

// Contains reports whether h is in the bank or was added in this run.
func (s *Seen) Contains(h uint64) bool {
	if s.InBank(h) {
		return true
	}
	if _, ok := s.recent[h]; ok {
		return true
	}
	_, ok := slices.BinarySearch(s.run, h)
	return ok
}

// Add adds h and reports whether it was new.
func (s *Seen) Add(h uint64) bool {
	if s.Contains(h) {
		return false
	}
	s.recent[h] = struct{}{}
	if len(s.recent) >= mergeAt {
		s.merge()
	}
	return true
}

// merge sorts the recent hashes into the run's sorted tier, keeping the
// map small: a map costs several times the 8 bytes a slice does.
func (s *Seen) merge() {
	add := make([]uint64, 0, len(s.recent))
	for h := range s.recent {
		add = append(add, h)
	}
	slices.Sort(add)
	merged := make([]uint64, 0, len(s.run)+len(add))
	i, j := 0, 0
	for i < len(s.run) && j < len(add) {
		if s.run[i] < add[j] {
			merged = append(merged, s.run[i])
			i++
		} else {
			merged = append(merged, add[j])
			j++
		}
	}
	merged = append(merged, s.run[i:]...)
	merged = append(merged, add[j:]...)
	s.run = merged
	clear(s.recent)
}

// Len returns the number of hashes in the set.
func (s *Seen) Len() int { return len(s.bank) + len(s.run) + len(s.recent) }
