// For a container image: rewrites ./package.json to depend on the named packages only, at the versions
// it pins, so `npm install --omit=dev` (which keeps the lock file's versions) installs what one program
// imports and not the web app, wrangler or the dev tools. Run by ssh-proxy/Dockerfile and
// practice/Dockerfile; test/deploy/dockerfiles.test.ts checks that their lists match the imports.
import { readFileSync, writeFileSync } from 'node:fs';

const names = process.argv.slice(2);
const manifest: unknown = JSON.parse(readFileSync('package.json', 'utf8'));
const dependencies: Record<string, unknown> =
  typeof manifest === 'object' && manifest !== null && 'dependencies' in manifest ? Object(manifest.dependencies) : {};
const missing = names.filter((name) => typeof dependencies[name] !== 'string');
if (names.length === 0 || missing.length > 0) {
  console.error(
    names.length === 0
      ? 'keep-dependencies: name the packages to keep (node scripts/keep-dependencies.ts hono zod …)'
      : `keep-dependencies: not among package.json's dependencies: ${missing.join(', ')}; add it there first, or drop it from the list`,
  );
  process.exit(1);
}
const { devDependencies: _dev, ...rest } = manifest as Record<string, unknown>;
const kept = { ...rest, dependencies: Object.fromEntries(names.map((name) => [name, dependencies[name]])) };
writeFileSync('package.json', `${JSON.stringify(kept, null, 2)}\n`);
console.log(`keep-dependencies: package.json now depends on ${names.length} packages: ${names.join(' ')}`);
