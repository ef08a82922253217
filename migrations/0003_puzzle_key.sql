-- 0003: one integer key per puzzle row for both uniqueness and random
-- samples.
--
-- A puzzle's sort key is a 63-bit hash of its string (see the store's
-- SortKeyOf), and a string has one level (its family's), so the unique
-- (level, sort_key) index finds a stored string as well as the unique
-- index over the packed string did, and it is the index random samples
-- walk. The store compares the strings themselves: a different string
-- that hashes to a taken key takes the next free one. Every row then
-- updates one index of random keys instead of two, with 12-byte entries
-- instead of 49. No query looks puzzles up by family, so that index goes.
DROP INDEX IF EXISTS puzzles_puzzle;
DROP INDEX IF EXISTS puzzles_level_key;
DROP INDEX IF EXISTS puzzles_family;
-- A bank whose bulk load died keeps the definitions of dropped indexes
-- here for the next writer to rebuild; these three are gone for good.
DELETE FROM deferred_indexes WHERE name IN ('puzzles_puzzle', 'puzzles_level_key', 'puzzles_family');
CREATE UNIQUE INDEX puzzles_key ON puzzles (level, sort_key);
