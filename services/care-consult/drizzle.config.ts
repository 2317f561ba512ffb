import { defineConfig } from 'drizzle-kit';

// One migration folder for the whole service; feature tables may live next to their feature as *.schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/*/*.schema.ts'],
  out: './drizzle',
});
