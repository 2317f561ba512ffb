-- Custom SQL migration file, put your code below! --
-- Vectors stored in the row (ADR 0307). Recall computes the cosine of every candidate it fetches (~50 from the
-- vector search, ~50 from the full-text search), which reads each candidate's vector. A 512-d vector takes 2 KB,
-- over PostgreSQL's TOAST threshold, so with the type's default storage (EXTENDED) every vector was stored out of
-- line: each read was a lookup in the TOAST table's index plus two chunk fetches, and a failed compression attempt
-- on every write. STORAGE MAIN keeps the vector in the row unless the row cannot fit a page (vectors of more than
-- about 1,900 dimensions are still moved out of line, so no insert can fail for its size). toast_tuple_target is
-- raised to its maximum as well: otherwise a row with an inline 2 KB vector still exceeds the default target
-- (2 KB), and PostgreSQL would move the row's small text and tsvector out of line instead, which recall reads too.
-- Rows are only toasted once they exceed a page (long document texts first, vectors last).
--
-- SET STORAGE alone applies to rows written afterwards. The column is also re-typed to itself through an
-- expression, which makes PostgreSQL rewrite the table once (re-storing every existing vector by the new rule) and
-- rebuild its indexes, the HNSW ones included: on the embedded database this takes as long as building those
-- indexes did (minutes at 100k memories), once, at the first start after the upgrade.
ALTER TABLE memories
  ALTER COLUMN embedding TYPE vector USING embedding::real[]::vector,
  ALTER COLUMN embedding SET STORAGE MAIN,
  SET (toast_tuple_target = 8160);
