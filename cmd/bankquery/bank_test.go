package main_test

import (
	"os"
	"testing"
)

var keepBank = os.Getenv("BANKQUERY_FIXTURE_BANK")

// TestWriteFixtureBank writes the fixture bank to $BANKQUERY_FIXTURE_BANK
// for trying the command by hand; it is skipped otherwise.
func TestWriteFixtureBank(t *testing.T) {
	if keepBank == "" {
		t.Skip("set BANKQUERY_FIXTURE_BANK to a file name to write the fixture bank there")
	}
	MustWriteBank(t, keepBank, MustReadFixture(t))
}
