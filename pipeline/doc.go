// Package pipeline is the concurrent machinery that builds a puzzle bank:
// a producer of numbered items, a pool of workers, a collector that admits
// results in item order (so a seed gives the same families whatever the
// number of workers), an in-memory dedup set of canonical forms, and one
// writer that batches families into store transactions. Bounded channels
// carry the back-pressure; nothing queues without limit.
//
// The package knows nothing of flags or of SQL: the command wires the
// domain packages (gen, grade) and the store into it through the small
// function types of Config.
package pipeline
