-- Premise lineage: the title of the premise a mutation evolved from
-- (mutate_premise source_title) and the primary parent of a combination
-- (cross_pollinate primary_title). NULL for fresh premises and for rows
-- stored before this migration.
ALTER TABLE premises ADD COLUMN source_title TEXT;
ALTER TABLE premises ADD COLUMN primary_title TEXT;
