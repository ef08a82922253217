//go:build !amd64 || purego

package solve

// rulesV3 and bivalueKeyV3 stand for the assembly versions, absent here.
func rulesV3(s *board) bool { return s.rules() }

func bivalueKeyV3(s *board, biv *[3]uint32) int { return s.bivalueKey(biv) }

// v3Supported and useV3 are false: the Go functions are the only
// versions here.
var v3Supported, useV3 = false, false
