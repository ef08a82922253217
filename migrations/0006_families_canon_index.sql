-- 0006: the families' canonical forms are unique through a named index.
--
-- canon's UNIQUE made SQLite keep an automatic index, which cannot be
-- dropped. A bulk load into a fresh bank drops families_canon instead,
-- finds repeated forms in memory, and builds the index once, sorted, at
-- the end, as it does for the puzzles' key index (see 0002 and the
-- store's bulkkeys.go): 4,000 families of random forms a batch dirtied
-- most of the index's leaf pages, half of the writer's work.
--
-- SQLite cannot change a column's constraints in place, so the table is
-- rebuilt the way its ALTER TABLE page lays out: a new table, the rows
-- copied with their IDs (the tables that refer to families keep their
-- references), the old one dropped, the new one renamed. The store runs
-- migrations with foreign keys off, since dropping the old table would
-- otherwise delete its rows as far as the references go, and checks them
-- (PRAGMA foreign_key_check) before it commits. Every other column and
-- CHECK is as 0001 made it; no index, trigger or view referred to the
-- table but the automatic one.
CREATE TABLE families_new (
    id            INTEGER PRIMARY KEY,
    canon         TEXT    NOT NULL CHECK (length(canon) = 81),
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
INSERT INTO families_new (id, canon, er, ep, ed, level, score, search_nodes, givens,
        min_row_col, hardest, path, minimal, symmetry, source, run_id, seed, created_at)
    SELECT id, canon, er, ep, ed, level, score, search_nodes, givens,
        min_row_col, hardest, path, minimal, symmetry, source, run_id, seed, created_at
    FROM families ORDER BY id;
DROP TABLE families;
ALTER TABLE families_new RENAME TO families;
CREATE UNIQUE INDEX families_canon ON families (canon);
