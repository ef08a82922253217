package main

// CountSelections makes the export count its reads of the selection in
// *n until the returned function restores the hook.
func CountSelections(n *int) (restore func()) {
	old := selectHook
	selectHook = func() { *n++ }
	return func() { selectHook = old }
}
