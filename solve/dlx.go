package solve

// dlx is Knuth's Algorithm X with dancing links on Sudoku's exact-cover
// matrix: 324 columns (each cell filled; each digit once in each row,
// column and box) and 729 rows (one digit in one cell), four nodes a row.
// Node 0 is the root, nodes 1..324 the column headers. It is a reference
// solver, independent of the others, not a fast one.
type dlx struct {
	l, r, u, d, col [dlxNodes]int32
	cand            [dlxNodes]int16 // the row's candidate, cell*9 + digit-1
	size            [dlxCols + 1]int32
	covered         [dlxCols + 1]bool
	rowNode         [729]int32 // the first node of each row
	chosen          [81]int32
	g               Grid
	limit, count    int
	first           Grid
}

const (
	dlxCols  = 324
	dlxNodes = 1 + dlxCols + 729*4
)

// countDLX counts the solutions of g up to limit with Algorithm X.
func countDLX(g Grid, limit int) (int, Grid) {
	x := new(dlx)
	x.build()
	x.g, x.limit = g, limit
	for i, v := range g {
		if v == 0 {
			continue
		}
		if v > 9 {
			return 0, Grid{}
		}
		n := x.rowNode[i*9+int(v)-1]
		for j := n; ; {
			c := x.col[j]
			if x.covered[c] {
				return 0, Grid{} // two givens claim the same constraint
			}
			x.cover(c)
			if j = x.r[j]; j == n {
				break
			}
		}
	}
	if limit <= 0 {
		return 0, Grid{}
	}
	x.search(0)
	return x.count, x.first
}

// build links the full matrix.
func (x *dlx) build() {
	for c := int32(0); c <= dlxCols; c++ {
		x.l[c], x.r[c] = c-1, c+1
		x.u[c], x.d[c], x.col[c] = c, c, c
	}
	x.l[0], x.r[dlxCols] = dlxCols, 0
	n := int32(dlxCols + 1)
	for cell := 0; cell < 81; cell++ {
		row, column, box := cell/9, cell%9, cell/27*3+cell%9/3
		for v := 0; v < 9; v++ {
			cols := [4]int32{
				int32(1 + cell),
				int32(1 + 81 + row*9 + v),
				int32(1 + 162 + column*9 + v),
				int32(1 + 243 + box*9 + v),
			}
			x.rowNode[cell*9+v] = n
			for k, c := range cols {
				j := n + int32(k)
				x.col[j] = c
				x.cand[j] = int16(cell*9 + v)
				x.u[j], x.d[j] = x.u[c], c
				x.d[x.u[c]], x.u[c] = j, j
				x.size[c]++
				x.l[j], x.r[j] = n+int32((k+3)%4), n+int32((k+1)%4)
			}
			n += 4
		}
	}
}

// cover removes column c and every row meeting it.
func (x *dlx) cover(c int32) {
	x.covered[c] = true
	x.r[x.l[c]], x.l[x.r[c]] = x.r[c], x.l[c]
	for i := x.d[c]; i != c; i = x.d[i] {
		for j := x.r[i]; j != i; j = x.r[j] {
			x.d[x.u[j]], x.u[x.d[j]] = x.d[j], x.u[j]
			x.size[x.col[j]]--
		}
	}
}

// uncover undoes cover(c).
func (x *dlx) uncover(c int32) {
	for i := x.u[c]; i != c; i = x.u[i] {
		for j := x.l[i]; j != i; j = x.l[j] {
			x.size[x.col[j]]++
			x.d[x.u[j]], x.u[x.d[j]] = j, j
		}
	}
	x.r[x.l[c]], x.l[x.r[c]] = c, c
	x.covered[c] = false
}

// search chooses the column with the fewest rows and tries each of them.
func (x *dlx) search(depth int) {
	if x.r[0] == 0 {
		if x.count == 0 {
			x.first = x.g
			for _, n := range x.chosen[:depth] {
				cd := x.cand[n]
				x.first[cd/9] = uint8(cd%9) + 1
			}
		}
		x.count++
		return
	}
	best, bestN := int32(0), int32(1<<30)
	for c := x.r[0]; c != 0; c = x.r[c] {
		if x.size[c] < bestN {
			best, bestN = c, x.size[c]
		}
	}
	if bestN == 0 {
		return
	}
	x.cover(best)
	for i := x.d[best]; i != best && x.count < x.limit; i = x.d[i] {
		x.chosen[depth] = i
		for j := x.r[i]; j != i; j = x.r[j] {
			x.cover(x.col[j])
		}
		x.search(depth + 1)
		for j := x.l[i]; j != i; j = x.l[j] {
			x.uncover(x.col[j])
		}
	}
	x.uncover(best)
}
