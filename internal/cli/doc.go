// Package cli holds what the two commands, bankgen and bankquery, share
// about talking to a person: progress on a terminal or in the log, and
// the formatting of per-level counts. It decides nothing about puzzles
// or banks.
package cli
