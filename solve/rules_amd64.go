//go:build amd64 && !purego

package solve

import "golang.org/x/sys/cpu"

// rulesV3 and bivalueKeyV3 are rules and bivalueKey as the compiler
// builds them for GOAMD64=v3, written out as assembly by rules_asm_gen.go
// (rules_amd64.s), for default builds on processors that have the
// instructions they use (BMI1, BMI2, POPCNT): a default build must test
// for POPCNT before each use and has no BMI, which made the search about
// 10% slower than a GOAMD64=v3 build.
//
//go:noescape
func rulesV3(s *board) bool

//go:noescape
func bivalueKeyV3(s *board, biv *[3]uint32) int

// v3Supported reports whether the processor has the instructions of
// rulesV3 and bivalueKeyV3.
var v3Supported = cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// useV3 reports whether the search calls rulesV3 and bivalueKeyV3 rather
// than the Go functions; the tests switch it to run both. A GOAMD64=v3
// build calls them too: they are the code it would compile itself, and
// the call costs a few instructions against about 2,500 a search node
// on forum 11+.
var useV3 = v3Supported
