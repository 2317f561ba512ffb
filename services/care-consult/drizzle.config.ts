import { defineConfig } from 'drizzle-kit';

// One migration folder and one schema file (src/db/schema.ts) for the whole service.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
