// Bindings that exist only in the worker tests.
import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      TEST_OPENAI_URL: string;
    }
  }
}
