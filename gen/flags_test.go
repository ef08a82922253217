package gen_test

import "flag"

// update rewrites the golden files and fixtures under testdata instead of
// comparing against them: `go test ./gen -update`. The canonical form's
// fixtures are sampled from ../shared/data, so that part needs it present.
var update = flag.Bool("update", false, "rewrite the golden files and fixtures under testdata")
