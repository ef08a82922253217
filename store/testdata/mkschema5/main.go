// Command mkschema5 made ../schema5.sql: built in a checkout of commit
// 480aaec (schema 5) as cmd/mkfixture, it adds list-form families and
// later variants to a bank that version's bankgen wrote:
//
//	bankgen -db fx.db -count 12 -variants 2 -seed 3 -quiet
//	go run ./cmd/mkfixture fx.db
//	sqlite3 fx.db .dump  (then the user_version and application_id pragmas)
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"

	"sudokubank/store"
)

func grid(n int) string {
	d := []byte(strconv.FormatInt(int64(n), 9))
	for i := range d {
		d[i]++
	}
	return strings.Repeat(".", 81-len(d)) + string(d)
}

func main() {
	ctx := context.Background()
	db, err := store.Open(ctx, os.Args[1], store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	slugs := []string{"full-house", "hidden-single-box", "x-wing", "jellyfish", "aic"}
	var batch []store.NewFamily
	for n := 1; n <= 8; n++ {
		var steps []string
		for i := 0; i < 1+n%4; i++ {
			steps = append(steps, slugs[(n*i+n)%len(slugs)])
		}
		f := store.NewFamily{Family: store.Family{
			Canon: grid(n), ER: 20 + 5*n, EP: 10, ED: 10, Level: 1 + n%5, Score: 1, Givens: 25,
			MinRowCol: 1, Hardest: steps[0], Symmetry: "none", Source: "fixture",
		}}
		if n%2 == 0 {
			// The list form, as written before the runs form.
			f.Path = strings.Join(steps, " ")
			f.Techniques = map[string]int{}
			for _, s := range steps {
				f.Techniques[s]++
			}
		} else if f.Path, err = store.EncodePath(steps); err != nil {
			log.Fatal(err)
		}
		for v := 0; v < n%3; v++ { // family 3 and 6 have no variant
			p := grid(1000 + 10*n + v)
			f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: p, Solution: p})
		}
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		log.Fatal(err)
	}
	// Later variants of stored families (an import of relabelled copies).
	for i := range batch {
		p := grid(5000 + i)
		batch[i].Puzzles = []store.Puzzle{{Puzzle: p, Solution: p}}
	}
	res, err := db.WriteBatch(ctx, batch)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", res)
}
