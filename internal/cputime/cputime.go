// Package cputime reads how much CPU time this process, or the calling
// OS thread, has used. Benchmarks report work per CPU second beside work
// per wall second because, on a shared machine, the CPU figure holds up
// while the wall clock does not. It is for benchmarks and tests only.
package cputime
