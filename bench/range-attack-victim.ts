// What an attack costs everyone else, for bench/range-attacks: another player's `whoami` (on a connection
// opened before the attack, and as a fresh login each time) and a baseline run through the real proxy.
import type ssh2 from 'ssh2';
import { parseReply, postAdvance } from '../test/support/advance-client.ts';
import type { AdvanceTarget } from '../test/support/advance-client.ts';
import { runConfigSchema } from '../schema/run.ts';
import type { Checkpoint, ProxyRequest } from '../schema/protocol.ts';
import type { Login } from './range-attack-support.ts';
import { login, logout, messageOf, run, sleep } from './range-attack-support.ts';
import { percentile } from './stats.ts';

/** Latencies in ms, and what went wrong instead, counted by message. */
export type VictimFigures = { open: number[]; fresh: number[]; errors: Map<string, number> };

/** A baseline run's result: levels solved, how it ended, and its wall time. */
export type BaselineFigures = { levels: number; outcome: string; wallMs: number };

/** The other player's pace: a person's, not a flood that would load the range by itself. */
const OPEN_EVERY_MS = 100;
const LOGIN_EVERY_MS = 250;

const count = (errors: Map<string, number>, message: string) =>
  errors.set(message.slice(0, 90), (errors.get(message.slice(0, 90)) ?? 0) + 1);

/**
 * Runs `whoami` again and again, on `held` (opened before the attack) and as fresh logins, until
 * `until` settles; the commands in flight then finish (each bounded by `commandTimeoutMs`).
 */
export async function measureVictim(
  held: ssh2.Client,
  as: Login,
  until: Promise<unknown>,
  commandTimeoutMs: number,
): Promise<VictimFigures> {
  const figures: VictimFigures = { open: [], fresh: [], errors: new Map() };
  let done = false;
  void until.finally(() => (done = true));
  const check = (stdout: string) => {
    if (stdout.trim() !== as.username) throw new Error(`whoami answered ${JSON.stringify(stdout.slice(0, 40))}`);
  };
  const onHeld = async () => {
    while (!done) {
      const started = performance.now();
      try {
        check((await run(held, 'whoami', commandTimeoutMs)).stdout);
        figures.open.push(performance.now() - started);
      } catch (err) {
        count(figures.errors, `open connection: ${messageOf(err)}`);
        if (messageOf(err) === 'connection closed') return;
      }
      await sleep(OPEN_EVERY_MS - (performance.now() - started));
    }
  };
  const fresh = async () => {
    while (!done) {
      const started = performance.now();
      try {
        const client = await login(as, commandTimeoutMs);
        try {
          check((await run(client, 'whoami', commandTimeoutMs)).stdout);
          figures.fresh.push(performance.now() - started);
        } finally {
          await logout(client);
        }
      } catch (err) {
        count(figures.errors, `login: ${messageOf(err)}`);
      }
      await sleep(LOGIN_EVERY_MS - (performance.now() - started));
    }
  };
  await Promise.all([onHeld(), fresh()]);
  return figures;
}

/**
 * Logs in once the range answers this address calmly again (a `whoami` within 500 ms), or after
 * `withinMs` whatever its state (`calm` false): what the last attack left running must not count
 * against the next, and a range that stays busy is reported rather than waited on for ever.
 */
export async function calmLogin(as: Login, withinMs: number): Promise<{ client: ssh2.Client; calm: boolean }> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      const client = await login(as);
      const started = performance.now();
      await run(client, 'whoami', withinMs);
      const calm = performance.now() - started < 500;
      if (calm || performance.now() > deadline) return { client, calm };
      await logout(client);
    } catch (err) {
      if (performance.now() > deadline) throw err;
    }
    await sleep(1_000);
  }
}

/** "p50 / p99 / max ms (n)" of the samples, or "—" without any. */
export function latencyCell(samples: number[]): string {
  if (samples.length === 0) return '— (0)';
  const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(0)} ms`);
  return `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 99))} / ${ms(Math.max(...samples))} (${samples.length})`;
}

/** Plays one baseline run from level 0 through the proxy, calling again while it yields, within `deadlineMs`. */
export async function baselineRun(to: AdvanceTarget, runId: string, deadlineMs: number): Promise<BaselineFigures> {
  const started = performance.now();
  const signal = AbortSignal.timeout(deadlineMs);
  let levels = 0;
  let checkpoint: Checkpoint | null = null;
  const wall = () => performance.now() - started;
  try {
    for (;;) {
      const body: ProxyRequest = { runId, config: runConfigSchema.parse({ maxRetries: 1 }), checkpoint };
      const response = await postAdvance(to, body, { signal });
      if (response.status !== 200)
        return { levels, outcome: `error: proxy answered ${response.status}`, wallMs: wall() };
      const reply = parseReply(await response.text());
      levels += reply.events.filter((e) => e.type === 'level_complete').length;
      checkpoint = reply.last ?? checkpoint;
      const { outcome, interrupt, error } = reply.end;
      if (outcome === 'yielded') continue;
      if (outcome === 'interrupted' && interrupt)
        return { levels, outcome: `paused (${interrupt.reason}) at level ${interrupt.level}`, wallMs: wall() };
      if (outcome === 'failed') return { levels, outcome: `error: ${error ?? 'failed'}`, wallMs: wall() };
      return { levels, outcome: `ended (${outcome})`, wallMs: wall() };
    }
  } catch (err) {
    const outcome = signal.aborted ? `no end within ${(deadlineMs / 1000).toFixed(0)} s` : `error: ${messageOf(err)}`;
    return { levels, outcome, wallMs: wall() };
  }
}
