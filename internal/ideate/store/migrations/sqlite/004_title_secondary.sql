-- A session's name (empty: the problem names it), set by renaming it; and
-- a combination's other parents (cross_pollinate secondary_premises titles,
-- a JSON array; NULL when none).
ALTER TABLE sessions ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE premises ADD COLUMN secondary_titles TEXT;
