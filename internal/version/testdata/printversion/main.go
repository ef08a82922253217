// Command printversion prints what -version prints, for the test of a
// revision given at link time.
package main

import (
	"os"

	"sudokubank/internal/version"
)

func main() {
	if err := version.Read().Write(os.Stdout, "printversion"); err != nil {
		os.Exit(1)
	}
}
