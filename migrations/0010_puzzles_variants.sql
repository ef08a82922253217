-- 0010: a variant is stored as its family's canonical form and the
-- transform that takes the form to it, not as two grids and a text.
--
-- A family's variants are transforms of its canonical form, and their
-- solutions the same transforms of the form's solution, so a row that
-- keeps the transform's number (gen's Transform.Code, 0 .. 2 * 6^8 * 9! - 1,
-- six bytes) and leaves the grids to be derived from its family holds
-- about 30 bytes instead of about 135. With many variants a family the
-- one writer's inserts are what a build waits for, and they cost about
-- in proportion to the bytes written: on bankgen -count 5000 -variants
-- 100 the bank takes 79 bytes a puzzle instead of 187 and the build
-- stores a third more puzzles a second (docs/performance-log.md, day 12);
-- a read pays about 2 microseconds a derived row.
--
-- families.solution is the canonical form's solution, packed as the
-- puzzles' grids are; NULL where it is not known (families stored before
-- this migration, whose rows keep their grids).
--
-- A puzzle row is one of two kinds, as the last CHECK says:
--   * derived: code holds the transform; puzzle, solution and transform
--     are NULL, and the grids are the transform of the family's canon
--     and solution. The writer stores a row so only when the derivation
--     gives back exactly the strings it was given, and only for a family
--     it stores in the same batch with its solution.
--   * explicit: code is NULL and the row keeps its two grids and its
--     transform's text, as every row did before. The rows of a bank
--     migrated here stay explicit, so the migration moves them as they
--     are, and a writer stores a row so when the derivation does not
--     hold (a transform it cannot read) or the family was stored before.
-- The store's reads derive the grids in SQL with functions it registers
-- on its connections (store/variant.go); nothing in the schema refers
-- to them, so the bank stays readable by any SQLite, the derived rows'
-- grids excepted.
--
-- The puzzles table is rebuilt, as 0006 rebuilt families: pack_items
-- refers to it, so the store runs this migration with foreign keys off
-- and checks them before it commits. A derived row's three NULLs cost
-- a byte each, of its record's header.
-- The three indexes are built again here whether they were live or
-- deferred (as 0009 did for puzzles_bucket): the writer that runs this
-- migration rebuilds the bank's deferred indexes right after it, and a
-- writer that defers indexes drops them again.
ALTER TABLE families ADD COLUMN solution BLOB
    CHECK (solution IS NULL OR typeof(solution) = 'blob' AND length(solution) = 41);
CREATE TABLE puzzles_new (
    id         INTEGER PRIMARY KEY,
    family_id  INTEGER NOT NULL REFERENCES families (id),
    code       INTEGER CHECK (code IS NULL OR typeof(code) = 'integer' AND code >= 0),
    sort_key   INTEGER NOT NULL,
    level      INTEGER NOT NULL,
    givens     INTEGER NOT NULL,
    er         INTEGER NOT NULL,
    puzzle     BLOB    CHECK (puzzle IS NULL OR typeof(puzzle) = 'blob' AND length(puzzle) = 41),
    solution   BLOB    CHECK (solution IS NULL OR typeof(solution) = 'blob' AND length(solution) = 41),
    transform  TEXT,   -- an explicit row's: from the family's canon, opaque
    CHECK ((code IS NULL) = (puzzle IS NOT NULL)
        AND (code IS NULL) = (solution IS NOT NULL)
        AND (code IS NULL) = (transform IS NOT NULL))
);
INSERT INTO puzzles_new (id, family_id, code, sort_key, level, givens, er, puzzle, solution, transform)
    SELECT id, family_id, NULL, sort_key, level, givens, er, puzzle, solution, transform
    FROM puzzles ORDER BY id;
DROP TABLE puzzles;
ALTER TABLE puzzles_new RENAME TO puzzles;
DELETE FROM deferred_indexes WHERE name IN ('puzzles_key', 'puzzles_bucket', 'puzzles_er');
CREATE UNIQUE INDEX puzzles_key    ON puzzles (level, sort_key);
CREATE INDEX        puzzles_bucket ON puzzles (level * 100 + givens);
CREATE INDEX        puzzles_er     ON puzzles (er);
