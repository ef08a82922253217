package pipeline

import (
	"fmt"
	"strings"

	"sudokubank/grade"
)

// LevelCounts is a count per level, indexed by grade.Level (index 0 unused).
type LevelCounts [grade.Evil + 1]int

// Total returns the sum over the five levels.
func (l LevelCounts) Total() int {
	n := 0
	for _, v := range l[grade.ExtremelyEasy:] {
		n += v
	}
	return n
}

// Target decides which families a run admits. The collector consults it
// in item order, so the admitted set depends only on the seed and the bank.
// Its zero value admits nothing; a Target belongs to one goroutine.
type Target struct {
	total int         // families still to admit; -1: no limit
	need  LevelCounts // per level still to admit; -1: no limit
	named bool        // the levels were asked for by name (-level, -quota)

	budget  int         // items after which a level not yielded fails the run; 0: never
	dryMax  int         // duplicates since the last family admitted that end the run; 0: never
	dry     int         // duplicates since the last family admitted
	items   int         // items seen (Yielded)
	yielded LevelCounts // items whose family had each level; [0]: of any level
}

// Count returns a target of n more families of the given levels (all
// levels when levels is empty), as -count does.
func Count(n int, levels []grade.Level) *Target {
	t := &Target{total: n, named: len(levels) > 0}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if len(levels) == 0 {
			t.need[l] = -1
		}
	}
	for _, l := range levels {
		t.need[l] = -1
	}
	return t
}

// Quota returns a target that brings the bank's count of each level up
// to want, given what it has, as -quota does: levels without a quota, or
// whose quota is met, get nothing.
func Quota(want, have LevelCounts) *Target {
	t := &Target{named: true}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		t.need[l] = max(want[l]-have[l], 0)
		t.total += t.need[l]
	}
	return t
}

// Unlimited returns a target that admits every new family, as import does.
func Unlimited() *Target {
	t := &Target{total: -1}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		t.need[l] = -1
	}
	return t
}

// Wants reports whether a family of level l would be admitted now.
func (t *Target) Wants(l grade.Level) bool {
	if l < grade.ExtremelyEasy || l > grade.Evil {
		return false
	}
	return t.total != 0 && t.need[l] != 0
}

// Take counts one admitted family of level l.
func (t *Target) Take(l grade.Level) {
	t.dry = 0
	if t.total > 0 {
		t.total--
	}
	if t.need[l] > 0 {
		t.need[l]--
	}
}

// Done reports whether the target admits nothing more.
func (t *Target) Done() bool {
	if t.total == 0 {
		return true
	}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if t.need[l] != 0 {
			return false
		}
	}
	return true
}

// Remaining returns how many families are still to admit, or -1 when the
// target has no limit.
func (t *Target) Remaining() int { return t.total }

// Wanted returns the levels the target still admits.
func (t *Target) Wanted() []grade.Level {
	var ls []grade.Level
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if t.Wants(l) {
			ls = append(ls, l)
		}
	}
	return ls
}

// GiveUpAfter makes Unreachable fail a run once n items have yielded no
// family of a level the target still wants: of any level, when the target
// names none (Count with no levels). Zero, the default, never gives up.
func (t *Target) GiveUpAfter(n int) { t.budget = n }

// Yielded counts one item, in item order, with the level of the family
// it made: 0 when it made no graded family (a duplicate, a failure, a
// puzzle outside the givens range).
func (t *Target) Yielded(l grade.Level) {
	t.items++
	if l >= grade.ExtremelyEasy && l <= grade.Evil {
		t.yielded[l]++
		t.yielded[0]++
	}
}

// ExhaustAfter makes Unreachable end a run with an *ExhaustedError once n
// items have made a family already seen (Duplicate) since the last family
// admitted: on a small grid the run has then found about every puzzle its
// settings make. Zero, the default, never ends a run so.
func (t *Target) ExhaustAfter(n int) { t.dryMax = n }

// Duplicate counts one item, in item order, that made a family the bank
// or the run has already.
func (t *Target) Duplicate() { t.dry++ }

// Unreachable returns an *UnreachableError once the items counted by
// Yielded reach the budget of GiveUpAfter without one family of a level
// the target still wants, an *ExhaustedError once ExhaustAfter's items in
// a row admitted none, and nil before and otherwise.
func (t *Target) Unreachable() error {
	if t.dryMax > 0 && t.dry >= t.dryMax && !t.Done() {
		return &ExhaustedError{Items: t.dry}
	}
	err := t.giveUp()
	// Where most of the items found families the run has, the level is
	// not out of reach: its puzzles are all found.
	if err != nil && t.dryMax > 0 && 2*t.dry > t.items {
		return &ExhaustedError{Items: t.dry}
	}
	return err
}

// giveUp is Unreachable's judgement of the budget of GiveUpAfter.
func (t *Target) giveUp() error {
	if t.budget == 0 || t.items < t.budget || t.Done() {
		return nil
	}
	if !t.named {
		if t.yielded[0] == 0 {
			return &UnreachableError{Items: t.items}
		}
		return nil
	}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if t.Wants(l) && t.yielded[l] == 0 {
			return &UnreachableError{Level: l, Items: t.items}
		}
	}
	return nil
}

// UnreachableError is a run that gave up: Items items made no family of
// Level (of any level when Level is 0), which is impossible or too rare
// with the run's settings. The givens range, when the run had one, is
// MinGivens-MaxGivens; its rating or technique target, when it had one,
// is described by Target (BuildOptions.TargetString).
type UnreachableError struct {
	Level                grade.Level
	Items                int
	MinGivens, MaxGivens int
	Target               string
}

// Error says what was not found in how many tries, and what to try
// instead.
func (e *UnreachableError) Error() string {
	what := "no family"
	if e.Level != 0 {
		what = "no " + e.Level.String() + " family"
	}
	if e.Target != "" {
		what += " " + e.Target
	}
	if e.MinGivens > 0 {
		what += fmt.Sprintf(" with %d-%d givens", e.MinGivens, e.MaxGivens)
	}
	hint := "try a wider givens range or another level"
	if e.Target != "" {
		hint = "try a wider target or givens range, or another level"
	}
	return fmt.Sprintf("%s in %d tries: gave up, as it is impossible or too rare; %s", what, e.Items, hint)
}

// ExhaustedError is a run that ended because Items items made families
// it had already since the last new one: the puzzles its
// settings can make are (nearly) all in the bank. Shape names the grid
// size for the message.
type ExhaustedError struct {
	Items int
	Shape string
}

// Error says that the bank holds what the settings make.
func (e *ExhaustedError) Error() string {
	what := "puzzles"
	if e.Shape != "" {
		what = e.Shape + " puzzles"
	}
	return fmt.Sprintf("the space of %s is exhausted: %d tries since the last new family found only families the bank has; the bank holds what they make", what, e.Items)
}

// ImpossibleError is a run whose target no family can meet, whatever it
// tries: its levels and its rating or technique target (Target, as
// BuildOptions.TargetString describes it) ask for an ER of Floor or more
// and of Ceiling or less, and Floor is above Ceiling (x-wing rated 9.0
// or more: an x-wing rates 3.2). Levels names the levels when the run
// wanted only some.
type ImpossibleError struct {
	Target, Levels string
	Floor, Ceiling grade.Rating
}

// Error says which target asks for an ER no family can have.
func (e *ImpossibleError) Error() string {
	what := "families"
	if e.Levels != "" {
		what = e.Levels + " families"
	}
	if e.Target != "" {
		what += " " + e.Target
		if strings.Contains(e.Target, ",") {
			what += "," // closes the clause TargetString opened
		}
	}
	return fmt.Sprintf("impossible target: %s would rate %s or more and %s or less; try another target or level", what, e.Floor, e.Ceiling)
}
