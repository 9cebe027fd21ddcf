// Applies the drizzle-generated D1 migrations before each worker test file, as `npm start` does.
import { applyD1Migrations, env } from 'cloudflare:test';

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
