// What a Node program loads at run time: the repository files and the npm packages reached from its
// entry point, following the ways this code loads modules (static and dynamic imports, createRequire,
// and worker files named by `new URL('./x.ts', import.meta.url)`). Type-only imports are skipped, as
// Node's type stripping erases them.
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Repository files (relative to `root`, sorted) and npm package names (sorted) a program needs. */
export type ImportClosure = { files: string[]; packages: string[] };

const SPECIFIERS = [
  // import x from '…', import { a } from '…', export * from '…', import '…' (not `import type` / `export type`)
  /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
  // import('…')
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  // createRequire(import.meta.url)('…')
  /createRequire\(import\.meta\.url\)\(\s*['"]([^'"]+)['"]\s*\)/g,
  // new URL('./worker.ts', import.meta.url): a file handed to a Worker thread
  /new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
];

const builtins = new Set(builtinModules);

/** The package an import names: `hono/cors` → `hono`, `@hono/node-server/x` → `@hono/node-server`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Follows every import from `entry` (a path relative to `root`). */
export function importClosure(root: string, entry: string): ImportClosure {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const pattern of SPECIFIERS) {
      for (const [, specifier] of text.matchAll(pattern)) {
        if (!specifier) continue;
        if (specifier.startsWith('.')) pending.push(relative(root, join(root, dirname(file), specifier)));
        else if (!specifier.startsWith('node:') && !builtins.has(specifier)) packages.add(packageOf(specifier));
      }
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}
