// Package plural writes a count with its noun, for the commands' summaries
// and the PDF's pages.
package plural

import (
	"strconv"
	"strings"
)

// Count returns n and the noun, plural unless n is 1: "1 shard", "2
// shards", "3 families". The nouns of the commands' summaries take "s",
// or "ies" for a final "y" after a consonant.
func Count(n int64, noun string) string {
	s := strconv.FormatInt(n, 10) + " "
	if n == 1 {
		return s + noun
	}
	if stem, ok := strings.CutSuffix(noun, "y"); ok && stem != "" && !strings.ContainsRune("aeiou", rune(stem[len(stem)-1])) {
		return s + stem + "ies"
	}
	return s + noun + "s"
}
