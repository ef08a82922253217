package store_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"sudokubank/store"
)

// The life of a bank: a generator run writes families in batches, a
// query samples them, an export makes a pack for a client.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bank")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "puzzles.db")

	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	runID, err := db.StartRun(ctx, store.Run{Params: "-n 3", Seed: 1, CodeVersion: "dev"})
	if err != nil {
		log.Fatal(err)
	}
	var batch []store.NewFamily
	for i := range 3 {
		canon := fmt.Sprintf("%d", i+1) + strings.Repeat(".", 80)
		batch = append(batch, store.NewFamily{
			Family: store.Family{
				Canon: canon, ER: 23, EP: 12, ED: 12, Level: 2, Score: 1.5, Givens: 1,
				Hardest: "hidden-single", Techniques: map[string]int{"hidden-single": 4},
				Symmetry: "none", Source: "gen", RunID: runID, Seed: uint64(i),
			},
			Puzzles: []store.Puzzle{
				{Puzzle: canon, Solution: strings.Repeat("123456789", 9)},
				{Puzzle: strings.Repeat(".", 80) + fmt.Sprintf("%d", i+1), Solution: strings.Repeat("987654321", 9), Transform: "flip"},
			},
		})
	}
	res, err := db.WriteBatch(ctx, batch)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %d families, %d puzzles\n", res.Families, res.Puzzles)
	if err := db.FinishRun(ctx, runID, store.RunEnd{Status: store.RunCompleted, Families: int64(res.Families), Puzzles: int64(res.Puzzles)}); err != nil {
		log.Fatal(err)
	}

	n, err := db.Count(ctx, store.Filter{Levels: []int{2}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("level 2 puzzles:", n)

	f := store.Filter{Levels: []int{2}, NotForClient: "acme"}
	pack, rows, err := db.CreatePack(ctx, store.PackSpec{Name: "acme-easy", Client: "acme", Format: "txt"},
		f, store.QueryOptions{Order: store.OrderRandom, Seed: 42}, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("pack %q: %d puzzles from %d families\n", pack.Name, len(rows), len(map[int64]bool{rows[0].FamilyID: true, rows[1].FamilyID: true}))

	_, _, err = db.CreatePack(ctx, store.PackSpec{Name: "acme-more", Client: "acme"}, f, store.QueryOptions{}, 2)
	fmt.Println("second pack of 2:", errors.Is(err, store.ErrNotEnough), err)
	// Output:
	// wrote 3 families, 6 puzzles
	// level 2 puzzles: 6
	// pack "acme-easy": 2 puzzles from 2 families
	// second pack of 2: true create pack "acme-more": 1 of 2 puzzles match: not enough matching puzzles
}
