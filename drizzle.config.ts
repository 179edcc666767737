import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/db/schema-publishing.ts', './src/db/schema-scheduling.ts', './src/db/schema-accounts.ts'],
  out: './src/db/migrations',
});
