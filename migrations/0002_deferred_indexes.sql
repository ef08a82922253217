-- 0002: room for index builds deferred during a bulk load.
--
-- A writer opened with deferred indexes drops the puzzles table's
-- secondary indexes and keeps their definitions here, in the same
-- transaction; closing the writer (or the next writer to open the bank,
-- if the first one died) recreates them and empties the table.
CREATE TABLE deferred_indexes (
    name  TEXT PRIMARY KEY,
    sql   TEXT NOT NULL
);
