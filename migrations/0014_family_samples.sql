-- 0014: packs are uniform over families, not over puzzles.
--
-- A pack takes one puzzle a family. Sampled by the puzzles' keys, a
-- family with many variants (bankgen -variants) was as many times likelier
-- to be picked: in a bank where 1% of the families hold half the puzzles,
-- a third of a pack's picks came from that 1%. A pack samples families
-- instead, by their canon_key (a hash of the canonical form, 0008), in
-- the slots and order a random sample of puzzles walks by sort_key (the
-- store's sample.go), then picks one variant of each picked family from
-- the seed.
--   * families_sample (size, level, canon_key) is to the families what
--     puzzles_key is to the puzzles: one index search a slot and level.
--   * puzzles_family (family_id) finds a picked family's variants; 0003
--     dropped an index of that name when no query looked puzzles up by
--     family. Rows are added in family order, so it grows at its end.
-- Both are secondary indexes: a writer that defers indexes (0002) drops
-- and rebuilds them with the others, and a reader that finds one missing
-- reads the table instead.
DELETE FROM deferred_indexes WHERE name IN ('families_sample', 'puzzles_family');
CREATE INDEX families_sample ON families (size, level, canon_key);
CREATE INDEX puzzles_family ON puzzles (family_id);
