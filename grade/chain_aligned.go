package grade

// chainAlignedTriples looks for SE's aligned triple exclusion (7.5).
// Not implemented yet: it finds nothing.
func chainAlignedTriples(h *chainHints, cands *Candidates) {}
