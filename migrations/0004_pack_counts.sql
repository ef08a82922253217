-- 0004: count the packs that hold each family instead of indexing
-- pack items by family.
--
-- -fresh and a client's "never the same family twice" ask whether any
-- pack (or any of the client's packs) holds a family. An index of
-- pack_items by family answered that, but it grows with every pack and a
-- pack of 10,000 touched nearly all of it (3,000 pages at 100 packs).
-- These tables hold one row a family (and client), however many packs
-- hold it, so recording a pack updates a page per few hundred of its
-- families. A row whose count falls to 0 is deleted.
CREATE TABLE packed_families (
    family_id  INTEGER PRIMARY KEY REFERENCES families (id),
    packs      INTEGER NOT NULL CHECK (packs >= 0)
);
CREATE TABLE client_families (
    family_id  INTEGER NOT NULL REFERENCES families (id),
    client     TEXT    NOT NULL CHECK (client <> ''),
    packs      INTEGER NOT NULL CHECK (packs >= 0),
    PRIMARY KEY (family_id, client)
) WITHOUT ROWID;
-- A bank with packs already recorded starts with their counts.
INSERT INTO packed_families (family_id, packs)
    SELECT family_id, count(*) FROM pack_items GROUP BY family_id;
INSERT INTO client_families (family_id, client, packs)
    SELECT i.family_id, k.client, count(*)
    FROM pack_items i JOIN packs k ON k.id = i.pack_id
    WHERE k.client <> ''
    GROUP BY i.family_id, k.client;
DROP INDEX IF EXISTS pack_items_family;
DELETE FROM deferred_indexes WHERE name = 'pack_items_family';
