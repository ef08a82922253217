-- 0013: a bank holds puzzles of every grid size: 4x4, 6x6, 8x8, 9x9,
-- 12x12, 16x16 and 25x25.
--
-- families.size and puzzles.size are the N of the N x N grids; every row
-- stored before is 9x9 (DEFAULT 9). A canonical form is N * N characters
-- (the grid package's text: '.' empty, 1-9, then A for 10 up to P for
-- 25), and a grid is packed in (N * N + 1) / 2 bytes, two cells a byte,
-- high nibble first, for N < 16 (41 bytes at 9x9, as before), and in
-- N * N bytes, one cell a byte, for N >= 16, whose values pass 15.
--
-- A derived puzzle row (0010) is 9x9 only: the transform codes number
-- the 9x9 group. A row of another size is always explicit, with its two
-- grids and its transform's text; code's CHECK says so.
--
-- The checks of 0001 and 0010 tie the forms to 81 characters, the givens
-- to 0..81 and the packed grids to 41 bytes, and SQLite cannot change a
-- column's constraints in place, so families and puzzles are rebuilt as
-- 0006 and 0010 rebuilt them (the store runs this migration with foreign
-- keys off and checks them before it commits), the size column beside
-- the checks that now depend on it. The rows keep their IDs.
--
-- The indexes lead with the size, so that every query of one size (by
-- level and givens, random samples of a level, ratings) searches that
-- size's entries alone, as a bank of one size did before:
--   * puzzles_key (size, level, sort_key), unique: a puzzle string has
--     one size (its length) and one level, so it finds a stored string
--     as (level, sort_key) did, and random samples walk one size's
--     levels;
--   * puzzles_bucket (size * 10000 + level * 1000 + givens): one integer
--     a row, as 0009 chose; 93022 is a 9x9 puzzle of level 3 with 22
--     givens. level * 100 + givens held givens to 0..99, and a 16x16
--     puzzle has over 100; givens are at most 625 (25x25), so a (size,
--     level) pair owns the numbers size * 10000 + level * 1000 ..
--     size * 10000 + level * 1000 + 999, and one number is one (size,
--     level, givens) bucket;
--   * puzzles_er (size, er): a listing by rating of one size walks its
--     own entries in (er, id) order.
-- The store states its conditions so that SQLite matches them: the size
-- as an equality or IN on the column, the bucket as the expression.
-- The indexes are built here whether they were live or deferred (as 0010
-- did): the writer that runs this migration rebuilds the bank's other
-- deferred indexes right after it, and a writer that defers indexes drops
-- them again. The keys are unique whether their indexes were live or a
-- bulk writer kept them unique in memory.
--
-- buckets and technique_counts are counted per size too: their keys
-- lead with it, and the counts of an older bank are its 9x9 counts.
CREATE TABLE families_new (
    id            INTEGER PRIMARY KEY,
    size          INTEGER NOT NULL DEFAULT 9 CHECK (size IN (4, 6, 8, 9, 12, 16, 25)),
    canon         TEXT    NOT NULL CHECK (length(canon) = size * size),
    er            INTEGER NOT NULL,             -- hardest step, tenths
    ep            INTEGER NOT NULL,             -- pearl, tenths
    ed            INTEGER NOT NULL,             -- diamond, tenths
    level         INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
    score         REAL    NOT NULL,             -- the paper's composite score
    search_nodes  INTEGER NOT NULL DEFAULT 0,
    givens        INTEGER NOT NULL CHECK (givens BETWEEN 0 AND size * size),
    min_row_col   INTEGER NOT NULL,             -- lowest givens in any row or column
    hardest       TEXT    NOT NULL DEFAULT '',  -- technique slug
    path          TEXT    NOT NULL DEFAULT '',  -- hint path, opaque
    minimal       INTEGER NOT NULL DEFAULT 0 CHECK (minimal IN (0, 1)),
    symmetry      TEXT    NOT NULL DEFAULT 'none',
    source        TEXT    NOT NULL,             -- 'gen' or the import's source
    run_id        INTEGER REFERENCES runs (id), -- NULL for imports
    seed          INTEGER NOT NULL DEFAULT 0,   -- the item's seed within the run
    created_at    INTEGER NOT NULL,
    canon_key     INTEGER NOT NULL DEFAULT 0,
    solution      BLOB CHECK (solution IS NULL OR typeof(solution) = 'blob' AND length(solution) =
                      CASE WHEN size < 16 THEN (size * size + 1) / 2 ELSE size * size END)
);
INSERT INTO families_new (id, canon, er, ep, ed, level, score, search_nodes, givens,
        min_row_col, hardest, path, minimal, symmetry, source, run_id, seed, created_at,
        canon_key, solution)
    SELECT id, canon, er, ep, ed, level, score, search_nodes, givens,
        min_row_col, hardest, path, minimal, symmetry, source, run_id, seed, created_at,
        canon_key, solution
    FROM families ORDER BY id;
DROP TABLE families;
ALTER TABLE families_new RENAME TO families;

CREATE TABLE puzzles_new (
    id         INTEGER PRIMARY KEY,
    family_id  INTEGER NOT NULL REFERENCES families (id),
    size       INTEGER NOT NULL DEFAULT 9,      -- the family's
    code       INTEGER CHECK (code IS NULL OR typeof(code) = 'integer' AND code >= 0 AND size = 9),
    sort_key   INTEGER NOT NULL,
    level      INTEGER NOT NULL,
    givens     INTEGER NOT NULL,
    er         INTEGER NOT NULL,
    puzzle     BLOB    CHECK (puzzle IS NULL OR typeof(puzzle) = 'blob' AND length(puzzle) =
                   CASE WHEN size < 16 THEN (size * size + 1) / 2 ELSE size * size END),
    solution   BLOB    CHECK (solution IS NULL OR typeof(solution) = 'blob' AND length(solution) =
                   CASE WHEN size < 16 THEN (size * size + 1) / 2 ELSE size * size END),
    transform  TEXT,   -- an explicit row's: from the family's canon, opaque
    CHECK ((code IS NULL) = (puzzle IS NOT NULL)
        AND (code IS NULL) = (solution IS NOT NULL)
        AND (code IS NULL) = (transform IS NOT NULL))
);
INSERT INTO puzzles_new (id, family_id, code, sort_key, level, givens, er, puzzle, solution, transform)
    SELECT id, family_id, code, sort_key, level, givens, er, puzzle, solution, transform
    FROM puzzles ORDER BY id;
DROP TABLE puzzles;
ALTER TABLE puzzles_new RENAME TO puzzles;

DELETE FROM deferred_indexes
    WHERE name IN ('puzzles_key', 'puzzles_bucket', 'puzzles_er', 'families_canon_key');
CREATE UNIQUE INDEX families_canon_key ON families (canon_key);
CREATE UNIQUE INDEX puzzles_key ON puzzles (size, level, sort_key);
CREATE INDEX puzzles_bucket ON puzzles (size * 10000 + level * 1000 + givens);
CREATE INDEX puzzles_er ON puzzles (size, er);

CREATE TABLE buckets_new (
    size      INTEGER NOT NULL,
    level     INTEGER NOT NULL,
    givens    INTEGER NOT NULL,
    families  INTEGER NOT NULL DEFAULT 0,
    puzzles   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (size, level, givens)
) WITHOUT ROWID;
INSERT INTO buckets_new (size, level, givens, families, puzzles)
    SELECT 9, level, givens, families, puzzles FROM buckets;
DROP TABLE buckets;
ALTER TABLE buckets_new RENAME TO buckets;

CREATE TABLE technique_counts_new (
    size       INTEGER NOT NULL,
    level      INTEGER NOT NULL,
    technique  TEXT    NOT NULL,
    families   INTEGER NOT NULL DEFAULT 0,
    puzzles    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (size, level, technique)
) WITHOUT ROWID;
INSERT INTO technique_counts_new (size, level, technique, families, puzzles)
    SELECT 9, level, technique, families, puzzles FROM technique_counts;
DROP TABLE technique_counts;
ALTER TABLE technique_counts_new RENAME TO technique_counts;
