-- 0008: families are unique by an integer key of their canonical form
-- instead of by an index of the 81-character forms.
--
-- canon_key is a 63-bit hash of canon (the store's canonKey: SortKeyOf of
-- the form), unique through families_canon_key, as the puzzles' sort keys
-- are (0003). The store compares the forms themselves: a form whose key
-- another form holds takes the next free key, at most 15 on, and a lookup
-- by form searches that window of keys. The index's entries are two
-- integers where families_canon's held the 81-character form: a fraction
-- of the size to build, and of the pages a batch of new families dirties
-- in a big bank.
--
-- sudokubank_canon_key is canonKey as a function the store registers for
-- its own connections, which alone run migrations; nothing in the schema
-- refers to it. The index is left deferred (see 0002) for the store's
-- step for this migration (settleCanonKeys), which builds it in the same
-- transaction: first, should two stored forms share a key, it gives the
-- later family (the higher ID) the next free key of its window.
ALTER TABLE families ADD COLUMN canon_key INTEGER NOT NULL DEFAULT 0;
UPDATE families SET canon_key = sudokubank_canon_key(canon);
DROP INDEX IF EXISTS families_canon;
-- A bank whose bulk load died keeps families_canon's definition here for
-- the next writer to rebuild; it is gone for good, replaced by this one.
DELETE FROM deferred_indexes WHERE name = 'families_canon';
INSERT INTO deferred_indexes (name, sql)
    VALUES ('families_canon_key', 'CREATE UNIQUE INDEX families_canon_key ON families (canon_key)');
