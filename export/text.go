package export

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"slices"
	"strconv"
	"strings"

	"sudokubank/grid"
)

// checkEvery is how many items a writer handles between looks at its
// context: often enough to stop promptly, rare enough to cost nothing.
const checkEvery = 256

// cells returns the grid as N*N characters (grid.Symbol) with empty for
// an empty cell.
func cells(g grid.Grid, empty byte) string {
	var buf [81]byte
	b := buf[:0]
	for _, v := range g.Cells {
		if v == 0 {
			b = append(b, empty)
		} else {
			b = append(b, grid.Symbol(v))
		}
	}
	return string(b)
}

// values returns the grid's cells as numbers for JSON, or nil for no grid.
func values(g grid.Grid) []int {
	if g.Cells == nil {
		return nil
	}
	return g.Values()
}

// solutionText returns the solution's 81 digits, or "" when there is none.
func solutionText(p parsed) string {
	if !p.hasSolution {
		return ""
	}
	return cells(p.solution, '0')
}

// ratingText formats an SE rating with one decimal.
func ratingText(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// RatingJSON returns an SE rating as the JSON export writes it: a number
// with one decimal, 7.0 rather than the 7 a float64 marshals to. Other
// JSON that carries ratings (bankserve's hint paths) writes them with it,
// so that every rating reads alike wherever it is written.
func RatingJSON(x float64) json.Number { return json.Number(ratingText(x)) }

// scoreText formats the composite score with two decimals.
func scoreText(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// ScoreJSON returns a composite score as the JSON export writes it: a
// number with two decimals, 2.20 rather than 2.2 (RatingJSON).
func ScoreJSON(x float64) json.Number { return json.Number(scoreText(x)) }

// orDash returns s, or "-" when s is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine replaces line breaks so a field cannot break a line-based layout.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

func writeSDM(ctx context.Context, w io.Writer, ps []parsed, _ Options) error {
	bw := bufio.NewWriter(w)
	var line [82]byte
	line[81] = '\n'
	for i, p := range ps {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for c, v := range p.puzzle.Cells {
			line[c] = '0' + v
		}
		bw.Write(line[:])
	}
	return bw.Flush()
}

func writeOpenSudoku(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	bw := bufio.NewWriter(w)
	name := opt.Title
	if name == "" {
		name = "sudokubank"
	}
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	bw.WriteString(`<opensudoku version="2">` + "\n")
	bw.WriteString(`  <folder name="`)
	xml.EscapeText(bw, []byte(name))
	bw.WriteString("\">\n")
	last := dateOr(opt.Date).UnixMilli()
	for i, p := range ps {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		created := last + int64(len(ps)-1-i)
		note := "Puzzle " + strconv.Itoa(p.Number)
		if p.LevelName != "" {
			note += ", " + p.LevelName
		}
		note += ", ER " + ratingText(p.Rating)
		bw.WriteString(`    <game data="` + cells(p.puzzle, '0') + `" created="` + strconv.FormatInt(created, 10) + `" note="`)
		xml.EscapeText(bw, []byte(note))
		bw.WriteString("\"/>\n")
	}
	bw.WriteString("  </folder>\n</opensudoku>\n")
	return bw.Flush()
}

// record returns an item's fields in CSVHeader order, as text.
func record(p parsed) []string {
	return []string{
		strconv.Itoa(p.Number),
		strconv.FormatInt(p.ID, 10),
		strconv.FormatInt(p.Family, 10),
		cells(p.puzzle, '.'),
		solutionText(p),
		strconv.Itoa(p.Givens),
		strconv.Itoa(p.Level),
		csvText(p.LevelName),
		ratingText(p.Rating),
		ratingText(p.Pearl),
		ratingText(p.Diamond),
		scoreText(p.Score),
		csvText(p.Hardest),
		csvText(p.Symmetry),
		strconv.FormatBool(p.Minimal),
		csvText(p.Source),
		strconv.Itoa(p.puzzle.Shape.N),
	}
}

// csvText guards a text cell against spreadsheet formula injection: a
// spreadsheet that opens the file runs a cell starting with '=', '+', '-'
// or '@' as a formula, and a leading tab or carriage return can smuggle
// one past a filter. Such a cell gets a leading single quote, which
// spreadsheets show as text (OWASP's advice for CSV injection). Only the
// text fields need it: the numbers and grids this package writes never
// start with those characters.
func csvText(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// credits returns the CSVCredits values of opt, or nil when it sets none.
func credits(opt Options) []string {
	if opt.Author == "" && opt.SourceName == "" && opt.URL == "" {
		return nil
	}
	return []string{csvText(opt.Author), csvText(opt.SourceName), csvText(opt.URL)}
}

func writeCSV(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	cred := credits(opt)
	if cred != nil {
		cw.Write(append(slices.Clip(CSVHeader), CSVCredits...))
	} else {
		cw.Write(CSVHeader)
	}
	for i, p := range ps {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		cw.Write(append(record(p), cred...))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// jsonItem is one JSON Lines object; field order follows CSVHeader.
type jsonItem struct {
	Number    int         `json:"number"`
	ID        int64       `json:"id"`
	Family    int64       `json:"family"`
	Puzzle    string      `json:"puzzle"`
	Solution  string      `json:"solution,omitempty"`
	Givens    int         `json:"givens"`
	Level     int         `json:"level"`
	LevelName string      `json:"level_name"`
	Rating    json.Number `json:"rating"`
	Pearl     json.Number `json:"pearl"`
	Diamond   json.Number `json:"diamond"`
	Score     json.Number `json:"score"`
	Hardest   string      `json:"hardest"`
	Symmetry  string      `json:"symmetry"`
	Minimal   bool        `json:"minimal"`
	Source    string      `json:"source"`
	Size      int         `json:"size"`
	// The grids as arrays of numbers, row by row, 0 for an empty cell.
	Cells         []int `json:"cells"`
	SolutionCells []int `json:"solution_cells,omitempty"`
	// The CSVCredits, when the export sets them.
	Author     string `json:"author,omitempty"`
	SourceName string `json:"source_name,omitempty"`
	URL        string `json:"url,omitempty"`
}

func writeJSON(ctx context.Context, w io.Writer, ps []parsed, opt Options) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i, p := range ps {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		err := enc.Encode(jsonItem{
			Number:    p.Number,
			ID:        p.ID,
			Family:    p.Family,
			Puzzle:    cells(p.puzzle, '.'),
			Solution:  solutionText(p),
			Givens:    p.Givens,
			Level:     p.Level,
			LevelName: p.LevelName,
			Rating:    RatingJSON(p.Rating),
			Pearl:     RatingJSON(p.Pearl),
			Diamond:   RatingJSON(p.Diamond),
			Score:     ScoreJSON(p.Score),
			Hardest:   p.Hardest,
			Symmetry:  p.Symmetry,
			Minimal:   p.Minimal,
			Source:    p.Source,
			Size:      p.puzzle.Shape.N,

			Cells:         p.puzzle.Values(),
			SolutionCells: values(p.solution),

			Author:     opt.Author,
			SourceName: opt.SourceName,
			URL:        opt.URL,
		})
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}
