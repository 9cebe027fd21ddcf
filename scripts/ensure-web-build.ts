// `npm run build:web` (always builds) and the first step of `npm test` (builds only when stale).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBuild } from './web-build.ts';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
try {
  const result = await ensureWebBuild(root, { force: process.argv.includes('--force') });
  console.log(result === 'built' ? 'web app built into web/out' : 'web app is current (web/out)');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
