-- 0011: a run records what kind of run it was, where its puzzles came
-- from and its command line as a list.
--
-- kind is generate, import or merge; source is the families' source
-- ("gen" for a generating run, the collection's name for an import);
-- args is the command line after the program name, a JSON array of
-- strings, so that a run can be repeated exactly (params, the same
-- words joined by spaces, loses the quoting, and is kept for the
-- programs that read it).
--
-- The runs of an older bank are classified from params, which bankgen
-- has always started with "import" for an import: a run of a bank
-- migrated here is an import or a generating run. A generating run's
-- source is "gen"; an old import's is left empty (its families do not
-- name their run), and every old run's args is "[]": params alone cannot
-- give them back.
ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'generate'
    CHECK (kind IN ('generate', 'import', 'merge'));
ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN args TEXT NOT NULL DEFAULT '[]';
UPDATE runs SET kind = 'import' WHERE params = 'import' OR params LIKE 'import %';
UPDATE runs SET source = 'gen' WHERE kind = 'generate';
