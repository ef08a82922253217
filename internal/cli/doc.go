// Package cli holds what the commands (bankgen, bankquery, bankserve)
// share about the command line: usage errors and exit statuses, -version,
// signals, seeds, and progress and per-level counts for a person to read.
// It decides nothing about puzzles or banks.
package cli
