package cli

import (
	"crypto/rand"
	"encoding/binary"
)

// RandomSeed draws a seed from the operating system, for a command given
// none; the command prints it so that the run can be repeated.
func RandomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:]) // never fails on the platforms Go supports (crypto/rand)
	return binary.LittleEndian.Uint64(b[:])
}
