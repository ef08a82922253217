package grade

import (
	"cmp"
	"fmt"
	"math"
	"strings"
)

// Technique names a solving technique. Its Slug is the stable name that is
// stored in the bank and used on the command line (-technique x-wing).
type Technique uint8

// The techniques, in the order of the SE scale.
const (
	NoTechnique Technique = iota
	FullHouse
	HiddenSingleBox
	HiddenSingleLine
	DirectPointing
	DirectClaiming
	DirectHiddenPair
	NakedSingle
	DirectHiddenTriple
	Pointing
	Claiming
	NakedPair
	XWing
	HiddenPair
	NakedTriple
	Swordfish
	HiddenTriple
	XYWing
	XYZWing
	UniqueRectangle
	UniqueLoop
	NakedQuad
	Jellyfish
	HiddenQuad
	BUG1
	BUG2
	BUG3
	BUG4
	AlignedPairExclusion
	XCycle  // cycles with X-links only (and coloring)
	YCycle  // cycles with Y-links only
	XChain  // forcing chains with X-links only
	XYChain // forcing chains with Y-links only
	AIC     // cycles and forcing chains mixing both link kinds
	AlignedTripleExclusion
	Nishio
	MultipleForcingChains // cell and region forcing chains
	DynamicForcingChains
	DynamicForcingChainsPlus
	NestedForcingChains2 // + forcing chains
	NestedForcingChains3 // + multiple forcing chains
	NestedForcingChains4 // + dynamic forcing chains
	NestedForcingChains5 // + dynamic forcing chains (+)
	BruteForce           // no technique finished the puzzle
	numTechniques
)

// techniqueInfo holds each technique's slug, display name and base rating
// (before any length or size bonus).
var techniqueInfo = [numTechniques]struct {
	slug, name string
	base       Rating
}{
	NoTechnique:              {"none", "None", 0},
	FullHouse:                {"full-house", "Full house", 10},
	HiddenSingleBox:          {"hidden-single-box", "Hidden single (box)", 12},
	HiddenSingleLine:         {"hidden-single-line", "Hidden single (row or column)", 15},
	DirectPointing:           {"direct-pointing", "Direct pointing", 17},
	DirectClaiming:           {"direct-claiming", "Direct claiming", 19},
	DirectHiddenPair:         {"direct-hidden-pair", "Direct hidden pair", 20},
	NakedSingle:              {"naked-single", "Naked single", 23},
	DirectHiddenTriple:       {"direct-hidden-triple", "Direct hidden triple", 25},
	Pointing:                 {"pointing", "Pointing", 26},
	Claiming:                 {"claiming", "Claiming", 28},
	NakedPair:                {"naked-pair", "Naked pair", 30},
	XWing:                    {"x-wing", "X-wing", 32},
	HiddenPair:               {"hidden-pair", "Hidden pair", 34},
	NakedTriple:              {"naked-triple", "Naked triple", 36},
	Swordfish:                {"swordfish", "Swordfish", 38},
	HiddenTriple:             {"hidden-triple", "Hidden triple", 40},
	XYWing:                   {"xy-wing", "XY-wing", 42},
	XYZWing:                  {"xyz-wing", "XYZ-wing", 44},
	UniqueRectangle:          {"unique-rectangle", "Unique rectangle", 45},
	UniqueLoop:               {"unique-loop", "Unique loop", 45},
	NakedQuad:                {"naked-quad", "Naked quad", 50},
	Jellyfish:                {"jellyfish", "Jellyfish", 52},
	HiddenQuad:               {"hidden-quad", "Hidden quad", 54},
	BUG1:                     {"bug-1", "BUG type 1", 56},
	BUG2:                     {"bug-2", "BUG type 2", 57},
	BUG3:                     {"bug-3", "BUG type 3", 57},
	BUG4:                     {"bug-4", "BUG type 4", 57},
	AlignedPairExclusion:     {"aligned-pair-exclusion", "Aligned pair exclusion", 62},
	XCycle:                   {"x-cycle", "X-cycle", 65},
	YCycle:                   {"y-cycle", "Y-cycle", 65},
	XChain:                   {"x-chain", "X-chain", 66},
	XYChain:                  {"xy-chain", "XY-chain", 66},
	AIC:                      {"aic", "Alternating inference chain", 70},
	AlignedTripleExclusion:   {"aligned-triple-exclusion", "Aligned triple exclusion", 75},
	Nishio:                   {"nishio", "Nishio forcing chain", 75},
	MultipleForcingChains:    {"multiple-forcing-chains", "Multiple forcing chains", 80},
	DynamicForcingChains:     {"dynamic-forcing-chains", "Dynamic forcing chains", 85},
	DynamicForcingChainsPlus: {"dynamic-forcing-chains-plus", "Dynamic forcing chains (+)", 90},
	NestedForcingChains2:     {"nested-forcing-chains", "Nested forcing chains", 95},
	NestedForcingChains3:     {"nested-multiple-forcing-chains", "Nested multiple forcing chains", 100},
	NestedForcingChains4:     {"nested-dynamic-forcing-chains", "Nested dynamic forcing chains", 105},
	NestedForcingChains5:     {"nested-dynamic-forcing-chains-plus", "Nested dynamic forcing chains (+)", 110},
	BruteForce:               {"brute-force", "Brute force", 0},
}

// Slug returns the technique's stable name, such as "x-wing".
func (t Technique) Slug() string {
	if t < numTechniques {
		return techniqueInfo[t].slug
	}
	return "unknown"
}

// String returns the technique's display name, such as "X-wing".
func (t Technique) String() string {
	if t < numTechniques {
		return techniqueInfo[t].name
	}
	return "unknown"
}

// BaseRating returns the rating of the technique before any length or
// size bonus.
func (t Technique) BaseRating() Rating {
	if t < numTechniques {
		return techniqueInfo[t].base
	}
	return 0
}

// Fixed reports whether every step of t rates t's BaseRating: not so for
// unique rectangles and loops, BUG type 3 and the chains, whose size or
// length adds to it, nor for BruteForce, which rates UnfinishedER.
func (t Technique) Fixed() bool {
	switch {
	case t == NoTechnique || t >= numTechniques:
		return false
	case t < UniqueRectangle:
		return true
	}
	switch t {
	case NakedQuad, Jellyfish, HiddenQuad, BUG1, BUG2, BUG4, AlignedPairExclusion:
		return true
	}
	return false
}

// Techniques returns every technique in the order of the SE scale,
// NoTechnique excluded.
func Techniques() []Technique {
	ts := make([]Technique, 0, numTechniques-1)
	for t := FullHouse; t < numTechniques; t++ {
		ts = append(ts, t)
	}
	return ts
}

// ParseTechnique finds a technique by its slug.
func ParseTechnique(slug string) (Technique, bool) {
	for t := FullHouse; t < numTechniques; t++ {
		if techniqueInfo[t].slug == slug {
			return t, true
		}
	}
	return NoTechnique, false
}

// ParseTechniqueSlug reads a technique's slug as a user types it, in any
// case and with spaces around it; its error lists the slugs there are.
func ParseTechniqueSlug(s string) (Technique, error) {
	if t, ok := ParseTechnique(strings.ToLower(strings.TrimSpace(s))); ok {
		return t, nil
	}
	names := make([]string, 0, numTechniques)
	for _, t := range Techniques() {
		names = append(names, t.Slug())
	}
	return NoTechnique, fmt.Errorf("unknown technique; the techniques are %s", strings.Join(names, ", "))
}

// LengthBonus returns the SE chain-length bonus in tenths for a chain of
// nodes nodes: with length = nodes - 2, one tenth for each ceiling of the
// series 4, 6, 8, 12, 16, 24, 32, 48, ... that length passes.
func LengthBonus(nodes int) Rating {
	length := nodes - 2
	bonus := Rating(0)
	ceil, grow32 := 4, true
	for length > ceil {
		bonus++
		if grow32 {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		grow32 = !grow32
	}
	return bonus
}

// CompareSlugs orders technique slugs as the grader lists its techniques
// (easiest first), then slugs it does not know (a bank's retired ones)
// by name.
func CompareSlugs(a, b string) int {
	return cmp.Or(cmp.Compare(slugRank(a), slugRank(b)), strings.Compare(a, b))
}

// slugRank is a slug's place in the grader's list of techniques, after
// all of them for a slug the grader does not know.
func slugRank(slug string) int {
	t, ok := ParseTechnique(slug)
	if !ok {
		return math.MaxInt
	}
	return int(t)
}
