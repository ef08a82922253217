-- 0006: a placeholder, no change.
--
-- Number 0006 belongs to the famidx branch (families_canon as a named,
-- droppable index), merged separately; this file only keeps the numbers
-- without a gap on the branch that adds 0007. The merge takes famidx's
-- 0006 instead of this file.
SELECT 1;
