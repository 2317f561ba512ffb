-- One database per service on the compose PostgreSQL (deploy/compose.yaml); memory's needs pgvector, which the
-- pgvector/pgvector image ships (memory's migration runs CREATE EXTENSION vector).
CREATE DATABASE care_memory;
CREATE DATABASE care_consult;
CREATE DATABASE care_auth;
