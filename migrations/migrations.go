// Package migrations holds the bank's schema as numbered SQL files,
// embedded in the binary. Each file NNNN_name.sql is one migration; the
// store package applies them in order, each in its own transaction, and
// records the number of the last one in PRAGMA user_version.
//
// The files are append-only: a released migration is never edited,
// renamed or removed, because banks in the field already carry its
// number. A change to the schema is a new file with the next number.
// A migration that rebuilds a table other tables refer to must run with
// foreign keys off: the store lists those by name (uncheckedMigrations
// in store/migrate.go) rather than by a mark in the file, which 0006,
// released before, cannot take. Likewise the store keeps the work in Go
// that a migration needs after its SQL (migrationSteps: 0008 builds its
// index there, once the keys it filled in are unique).
// This package holds no logic; applying the files is the store's job.
package migrations

import "embed"

// FS holds the migration files, NNNN_name.sql, numbered from 0001
// without gaps.
//
//go:embed *.sql
var FS embed.FS
