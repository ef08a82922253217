// Command bankquery answers questions about a puzzle bank and exports
// puzzle packs from it: statistics, lists by difficulty, single puzzles
// with their grade, pack exports in every format of package export, and
// the record of the packs made so far.
package main

func main() { program.Main() }
