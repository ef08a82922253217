-- 0001: the first bank schema.
--
-- Conventions:
--   * ratings (ER, EP, ED) are integers in tenths of the Sudoku Explainer
--     scale: 23 means 2.3; levels are 1..5;
--   * times are Unix seconds (UTC);
--   * 64-bit seeds are stored as the signed integer with the same bits;
--   * grid strings (canon) are 81 characters, '.' for an empty cell;
--   * the puzzles table stores its grids packed in 41 bytes, two cells a
--     byte, high nibble first, 0 for an empty cell: half the text's size
--     in the table and its unique index, in the text's order.

-- A run of the generator: its parameters, how far it got, how it ended.
CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    params        TEXT    NOT NULL DEFAULT '',  -- opaque, written by bankgen
    seed          INTEGER NOT NULL,
    code_version  TEXT    NOT NULL DEFAULT '',
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,                      -- NULL while running
    status        TEXT    NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'completed', 'interrupted', 'failed')),
    families      INTEGER NOT NULL DEFAULT 0,
    puzzles       INTEGER NOT NULL DEFAULT 0,
    dup_families  INTEGER NOT NULL DEFAULT 0,
    dup_puzzles   INTEGER NOT NULL DEFAULT 0,
    rejected      INTEGER NOT NULL DEFAULT 0,
    message       TEXT    NOT NULL DEFAULT ''
);

-- A family is one essentially different puzzle: every relabelling,
-- rotation or reflection of it shares one canonical form. The grade is
-- the family's, since transforms do not change how a puzzle solves.
CREATE TABLE families (
    id            INTEGER PRIMARY KEY,
    canon         TEXT    NOT NULL UNIQUE CHECK (length(canon) = 81),
    er            INTEGER NOT NULL,             -- hardest step, tenths
    ep            INTEGER NOT NULL,             -- pearl, tenths
    ed            INTEGER NOT NULL,             -- diamond, tenths
    level         INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
    score         REAL    NOT NULL,             -- the paper's composite score
    search_nodes  INTEGER NOT NULL DEFAULT 0,
    givens        INTEGER NOT NULL CHECK (givens BETWEEN 0 AND 81),
    min_row_col   INTEGER NOT NULL,             -- lowest givens in any row or column
    hardest       TEXT    NOT NULL DEFAULT '',  -- technique slug
    path          TEXT    NOT NULL DEFAULT '',  -- hint path, opaque
    minimal       INTEGER NOT NULL DEFAULT 0 CHECK (minimal IN (0, 1)),
    symmetry      TEXT    NOT NULL DEFAULT 'none',
    source        TEXT    NOT NULL,             -- 'gen' or the import's source
    run_id        INTEGER REFERENCES runs (id), -- NULL for imports
    seed          INTEGER NOT NULL DEFAULT 0,   -- the item's seed within the run
    created_at    INTEGER NOT NULL
);

-- How often each technique was used in the family's solve path.
CREATE TABLE family_techniques (
    family_id  INTEGER NOT NULL REFERENCES families (id),
    technique  TEXT    NOT NULL,
    uses       INTEGER NOT NULL,
    PRIMARY KEY (family_id, technique)
) WITHOUT ROWID;

-- A puzzle is one stored variant of a family. level, givens and er are
-- copies of the family's (they never change) so that the common queries
-- are range scans of one index. sort_key is a pseudo-random key fixed at
-- insert: random samples are range scans from a seed-derived key.
CREATE TABLE puzzles (
    id         INTEGER PRIMARY KEY,
    family_id  INTEGER NOT NULL REFERENCES families (id),
    puzzle     BLOB    NOT NULL CHECK (typeof(puzzle) = 'blob' AND length(puzzle) = 41),
    solution   BLOB    NOT NULL CHECK (typeof(solution) = 'blob' AND length(solution) = 41),
    transform  TEXT    NOT NULL DEFAULT '',    -- from the family's canon, opaque
    sort_key   INTEGER NOT NULL,
    level      INTEGER NOT NULL,
    givens     INTEGER NOT NULL,
    er         INTEGER NOT NULL
);
CREATE UNIQUE INDEX puzzles_puzzle     ON puzzles (puzzle);
CREATE INDEX        puzzles_level_key  ON puzzles (level, sort_key);
CREATE INDEX        puzzles_level_giv  ON puzzles (level, givens);
CREATE INDEX        puzzles_er         ON puzzles (er);
CREATE INDEX        puzzles_family     ON puzzles (family_id);

-- Counts per level x givens, kept by the store in the same transaction
-- as the rows they count, so that statistics and bucket counts are one
-- lookup instead of a scan.
CREATE TABLE buckets (
    level     INTEGER NOT NULL,
    givens    INTEGER NOT NULL,
    families  INTEGER NOT NULL DEFAULT 0,
    puzzles   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (level, givens)
) WITHOUT ROWID;

-- A pack is one export: who it was for, how it was chosen, when.
CREATE TABLE packs (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    client      TEXT    NOT NULL DEFAULT '',
    format      TEXT    NOT NULL DEFAULT '',
    filter      TEXT    NOT NULL DEFAULT '',   -- the filters used, as the user gave them
    size        INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);

-- The puzzles of a pack, in order; never two of one family.
CREATE TABLE pack_items (
    pack_id    INTEGER NOT NULL REFERENCES packs (id),
    position   INTEGER NOT NULL,
    puzzle_id  INTEGER NOT NULL REFERENCES puzzles (id),
    family_id  INTEGER NOT NULL REFERENCES families (id),
    PRIMARY KEY (pack_id, position),
    UNIQUE (pack_id, family_id)
) WITHOUT ROWID;

-- How many packs hold each family, in all and per client: what -fresh
-- and a client's "never the same family twice" look up. One row a
-- family (and client), however many packs hold it, so that recording a
-- pack updates a page per few hundred of its families; an index of
-- pack_items by family would grow with every pack, and a pack of 10,000
-- touched nearly all of it (3,000 pages at 100 packs). A row whose
-- count falls to 0 is deleted.
CREATE TABLE packed_families (
    family_id  INTEGER PRIMARY KEY REFERENCES families (id),
    packs      INTEGER NOT NULL CHECK (packs >= 0)
);
CREATE TABLE client_families (
    family_id  INTEGER NOT NULL REFERENCES families (id),
    client     TEXT    NOT NULL CHECK (client <> ''),
    packs      INTEGER NOT NULL CHECK (packs >= 0),
    PRIMARY KEY (family_id, client)
) WITHOUT ROWID;

-- A family exported to a client is reserved to that client: the primary
-- key makes it impossible to reserve one family to two clients.
CREATE TABLE reservations (
    family_id   INTEGER PRIMARY KEY REFERENCES families (id),
    client      TEXT    NOT NULL CHECK (client <> ''),
    pack_id     INTEGER NOT NULL REFERENCES packs (id),
    created_at  INTEGER NOT NULL
);
CREATE INDEX reservations_client ON reservations (client);
