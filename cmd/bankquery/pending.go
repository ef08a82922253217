package main

import (
	"errors"
	"fmt"

	"sudokubank/export"
)

// checkDestination fails early when the export cannot go to path (see
// export.CheckOutput), in the words of the -out and -force flags.
func checkDestination(path, bank string, force bool) error {
	err := export.CheckOutput(path, bank, force)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, export.ErrExists):
		return fmt.Errorf("-out %s: %w (use -force to replace it)", path, export.ErrExists)
	}
	return fmt.Errorf("-out %s: %w", path, err)
}
