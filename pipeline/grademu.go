package pipeline

import (
	"sync"

	"sudokubank/grade"
	"sudokubank/solve"
)

// gradeMu serializes grading. main's grader keeps the scratch of its chain
// search in a package variable (chainUnaryScratch in grade/chain_unary.go),
// so two Graders running at once race: go test -race shows it in bankgen,
// and the symptoms are wrong steps, panics, endless loops and grades that
// depend on scheduling. The fix (scratch per Grader) is on its way from
// the gradechains branch; until it is on main, grading runs one at a time.
// Remove gradeMu and gradeSerial then.
var gradeMu sync.Mutex

// gradeSerial grades p with g while holding gradeMu.
func gradeSerial(g *grade.Grader, p solve.Grid) (grade.Grade, error) {
	gradeMu.Lock()
	defer gradeMu.Unlock()
	return g.Grade(p)
}
