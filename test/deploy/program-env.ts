// The environment variables each deployable program reads, found in its code rather than listed by
// hand, so a setting added to the code fails the Dockerfile and docs checks until it is deployed and
// documented. The proxy's come from running readProxySettings on a recording environment; the range's
// from `process.env.NAME` in the files its entry point loads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { importClosure } from './import-closure.ts';

/** A program an image runs: its entry point, its Dockerfile, and what it reads. */
export type Program = {
  name: 'proxy' | 'range';
  entry: string;
  dockerfile: string;
  /** Every environment variable it reads, sorted. */
  env: string[];
  /** The variable holding its listening port, and the port when it is unset. */
  portVariable: string;
  defaultPort: number;
};

const root = join(import.meta.dirname, '../..');

/** `process.env.NAME` reads in the files `entry` loads; throws on a read whose name the code computes. */
function envReadIn(entry: string): Set<string> {
  const names = new Set<string>();
  for (const file of importClosure(root, entry).files) {
    const text = readFileSync(join(root, file), 'utf8');
    if (/process\.env\[/.test(text)) {
      throw new Error(`${file} reads process.env[…]; name the variable (process.env.NAME) so deployment checks see it`);
    }
    for (const [, name] of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(name!);
  }
  return names;
}

/** The names readProxySettings looks up, seen through an environment that records each read. */
function proxySettingNames(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    { PROXY_SECRET: 'x'.repeat(16) },
    {
      get(target, key) {
        if (typeof key === 'string') read.add(key);
        return typeof key === 'string' ? target[key] : undefined;
      },
    },
  );
  readProxySettings(env);
  return read;
}

const rangeMain = readFileSync(join(root, 'practice/main.ts'), 'utf8');
const rangePort = /process\.env\.PRACTICE_PORT \?\? (\d+)/.exec(rangeMain)?.[1];
if (!rangePort)
  throw new Error('practice/main.ts no longer reads `process.env.PRACTICE_PORT ?? <port>`; update this test');

/** The proxy and the practice range. */
export const programs: Program[] = [
  {
    name: 'proxy',
    entry: 'ssh-proxy/main.ts',
    dockerfile: 'ssh-proxy/Dockerfile',
    env: [...new Set([...proxySettingNames(), ...envReadIn('ssh-proxy/main.ts')])].sort(),
    portVariable: 'PROXY_PORT',
    defaultPort: readProxySettings({ PROXY_SECRET: 'x'.repeat(16) }).port,
  },
  {
    name: 'range',
    entry: 'practice/main.ts',
    dockerfile: 'practice/Dockerfile',
    env: [...envReadIn('practice/main.ts')].sort(),
    portVariable: 'PRACTICE_PORT',
    defaultPort: Number(rangePort),
  },
];
