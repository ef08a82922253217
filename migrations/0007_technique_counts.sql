-- 0007: count the families (and their puzzles) of each level that use
-- each technique.
--
-- Publishers ask how many puzzles of a level use a technique, and a list
-- filtered by a technique that no family of the levels asked for uses
-- would otherwise check every puzzle row's family to find nothing. The
-- writer keeps these counts in the same transaction as the rows, like
-- buckets. A family uses a technique when the technique filter says so:
-- the path's technique list in the runs form, the family_techniques rows
-- in the list form. puzzles counts the puzzles of those families.
CREATE TABLE technique_counts (
    level      INTEGER NOT NULL,
    technique  TEXT    NOT NULL,
    families   INTEGER NOT NULL DEFAULT 0,
    puzzles    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (level, technique)
) WITHOUT ROWID;

-- A bank with families starts with their counts. In the runs form the
-- techniques are the comma-separated slugs between the leading comma and
-- the last one (the steps after it are letters and digits, which rtrim
-- strips); the recursive part splits them off one at a time.
INSERT INTO technique_counts (level, technique, families, puzzles)
WITH RECURSIVE
    runs (id, level, rest) AS (
        SELECT id, level, substr(rtrim(path, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), 2)
        FROM families WHERE substr(path, 1, 1) = ','
    ),
    split (id, level, technique, rest) AS (
        SELECT id, level, '', rest FROM runs
        UNION ALL
        SELECT id, level, substr(rest, 1, instr(rest, ',') - 1), substr(rest, instr(rest, ',') + 1)
        FROM split WHERE instr(rest, ',') > 0
    ),
    uses (id, level, technique) AS (
        SELECT id, level, technique FROM split WHERE technique <> ''
        UNION
        SELECT f.id, f.level, t.technique
        FROM families f JOIN family_techniques t ON t.family_id = f.id
        WHERE substr(f.path, 1, 1) <> ','
    ),
    variants (family_id, n) AS (
        SELECT family_id, count(*) FROM puzzles GROUP BY family_id
    )
SELECT u.level, u.technique, count(*), COALESCE(SUM(v.n), 0)
FROM uses u LEFT JOIN variants v ON v.family_id = u.id
GROUP BY u.level, u.technique;
