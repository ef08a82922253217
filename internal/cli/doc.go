// Package cli holds what the two commands, bankgen and bankquery, share
// about the command line: usage errors and exit statuses, signals, and
// progress and per-level counts for a person to read. It decides nothing
// about puzzles or banks.
package cli
