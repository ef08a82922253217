// Command bankload is a load generator for bankserve: C clients send GET
// requests to one endpoint for D seconds, and it reports the requests a
// second, the latency percentiles, the errors and the server's resident
// memory. It can serve a bank itself, in the same process, so that one
// command measures a bank on one machine. It is a measuring tool, not a
// test: the figures go to docs/performance.md.
package main

import "sudokubank/internal/cli"

func main() {
	cli.Program{Name: "bankload", UsageHint: "Run 'bankload -h' for usage.", Run: Run}.Main()
}
