package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"sudokubank/grade"
	"sudokubank/pipeline"
)

// IsTerminal reports whether w is a terminal, where progress is drawn as
// a bar rather than logged.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Progress reports a run's counters while it runs: a bar redrawn in place
// on a terminal, otherwise a log line now and then.
type Progress struct {
	Stats *pipeline.Stats // the run's counters, read as they change
	Total int             // families wanted; -1 when unknown
	Bar   io.Writer       // the terminal to draw on; nil to log instead
	Log   *slog.Logger    // where log lines go when Bar is nil
	Every time.Duration   // between updates; 0 means 200ms for a bar, 30s for the log
}

// Run reports until ctx is done, then clears the bar.
func (p *Progress) Run(ctx context.Context) {
	every := p.Every
	if every <= 0 {
		every = 30 * time.Second
		if p.Bar != nil {
			every = 200 * time.Millisecond
		}
	}
	start := time.Now()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			if p.Bar != nil {
				fmt.Fprint(p.Bar, "\r\x1b[K")
			}
			return
		case <-tick.C:
			s := p.Stats.Snapshot()
			el := time.Since(start)
			if p.Bar != nil {
				fmt.Fprint(p.Bar, "\r\x1b[K"+Bar(s, p.Total, el))
			} else {
				p.Log.Info("progress", "families", s.Families, "puzzles", s.Puzzles,
					"rate", fmt.Sprintf("%.0f/s", rate(s.Families, el)),
					"duplicates", s.Duplicates, "levels", LevelString(s.Levels))
			}
		}
	}
}

// Bar formats one line of progress: a bar when the total is known, the
// rate of families written, the time left, and the count per level.
func Bar(s pipeline.Snapshot, total int, elapsed time.Duration) string {
	var b strings.Builder
	r := rate(s.Families, elapsed)
	if total > 0 {
		const width = 24
		done := min(int(s.Families), total)
		fill := width * done / total
		fmt.Fprintf(&b, "[%s%s] %3d%% %d/%d families", strings.Repeat("=", fill), strings.Repeat(" ", width-fill),
			100*done/total, s.Families, total)
	} else {
		fmt.Fprintf(&b, "%d families", s.Families)
	}
	fmt.Fprintf(&b, "  %.0f/s", r)
	if total > 0 && r > 0 {
		left := time.Duration(float64(total-int(s.Families)) / r * float64(time.Second))
		fmt.Fprintf(&b, "  ETA %s", left.Round(time.Second))
	}
	fmt.Fprintf(&b, "  %s", LevelString(s.Levels))
	return b.String()
}

// LevelString formats a count per level as "extremely-easy=1 easy=2 ...".
func LevelString(ls pipeline.LevelCounts) string {
	var parts []string
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		parts = append(parts, fmt.Sprintf("%s=%d", l, ls[l]))
	}
	return strings.Join(parts, " ")
}

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}
