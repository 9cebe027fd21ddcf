// The CLI as a script runs it (no terminal, no colour) and a stack's REST API as the e2e tests read it:
// one copy of each, shared by the CLI, archive and outcome tests.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RunEvent } from '../../schema/protocol.ts';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'cli/main.ts');

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs `bandit-runner --url <url> …args`; resolves with its exit code and output. */
export function runCli(url: string, args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--url', url, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A JSON answer from the stack, or an error naming the request and what came back. */
export async function apiJson<T>(url: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Every stored event of a run, page by page. */
export async function allEvents(url: string, id: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (let since = 0; ; ) {
    const page = await apiJson<{ events: RunEvent[]; nextSince: number | null }>(
      url,
      `/api/runs/${id}/events?since=${since}&limit=1000`,
    );
    events.push(...page.events);
    if (page.nextSince === null || page.events.length === 0) return events;
    since = page.nextSince;
  }
}
