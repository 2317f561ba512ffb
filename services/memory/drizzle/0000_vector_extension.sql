-- Custom SQL migration file, put your code below! --
-- pgvector must exist before the first vector column (0001); PGlite loads it via openDatabase({extensions: ['vector']}).
CREATE EXTENSION IF NOT EXISTS vector;
