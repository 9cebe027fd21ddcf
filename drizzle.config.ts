// drizzle-kit generates flat SQL migrations from schema/db.ts; wrangler applies them to D1.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './schema/db.ts',
  out: './schema/migrations',
  // `wrangler d1 migrations apply` wants NNNN_name.sql files; name each migration with --name.
  migrations: { prefix: 'index' },
});
