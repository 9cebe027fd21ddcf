// bench/range-attacks: the four denial-of-service attacks of issue 33's security review, one after another,
// against a practice range run as its own process. With no attack first (the control), then during each,
// it prints another player's `whoami` latency and how a baseline run through the real proxy fared.
// Each attack comes from its own loopback address (127.0.0.2 and up), the other player and the proxy
// from 127.0.0.1 (--same-address: all from 127.0.0.1). Prints figures, asserts nothing.
// Usage: node bench/range-attacks.ts [--same-address] [--only queue,disk,slots,cron] [--window S]
//   [--queue-conns N] [--disk-conns N] [--disk-mib N] [--slots N] [--cron-wait S] [--cron-interval S]
//   [--cron-loop LINE] [--run-timeout S] [--settle S] [--max-seconds S]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildWorld } from '../practice/world/world.ts';
import { freePort } from '../test/support/free-port.ts';
import type { Attack, AttackContext } from './range-attack-kinds.ts';
import { cronAttack, diskAttack, noAttack, queueAttack, slotsAttack } from './range-attack-kinds.ts';
import {
  closeAll,
  cpuSeconds,
  logout,
  messageOf,
  rssMiB,
  sleep,
  startChild,
  withTimeout,
} from './range-attack-support.ts';
import type { BaselineFigures, VictimFigures } from './range-attack-victim.ts';
import { baselineRun, calmLogin, latencyCell, measureVictim } from './range-attack-victim.ts';

const { values } = parseArgs({
  options: {
    'same-address': { type: 'boolean', default: false },
    only: { type: 'string', default: 'queue,disk,slots,cron' },
    window: { type: 'string', default: '20' },
    'queue-conns': { type: 'string', default: '32' },
    'disk-conns': { type: 'string', default: '36' },
    'disk-mib': { type: 'string', default: '32' },
    slots: { type: 'string', default: '256' },
    'cron-wait': { type: 'string', default: '130' },
    'cron-interval': { type: 'string', default: '15' },
    // A loop that waits: a busy `while true; do :; done` ends at just-bash's 1,000,000 iterations (~7 s).
    'cron-loop': { type: 'string', default: 'while true; do sleep 1; done' },
    'run-timeout': { type: 'string', default: '60' },
    settle: { type: 'string', default: '45' },
    'max-seconds': { type: 'string', default: '600' },
  },
});
const seconds = (name: keyof typeof values) => Number(values[name]) * 1000;
const WINDOW_MS = seconds('window');
const RUN_TIMEOUT_MS = seconds('run-timeout');
/** Longer than any wait a queued command could see, so a slow answer is measured rather than dropped. */
const COMMAND_TIMEOUT_MS = 90_000;
const SECRET = 'bench-secret-0123456789';
const VICTIM_FROM = '127.0.0.1';
const MODE = values['same-address']
  ? 'same address: attackers from 127.0.0.1 too'
  : 'attackers from 127.0.0.2 and up, one address per attack';

const attacks: Record<string, Attack> = {
  queue: queueAttack(Number(values['queue-conns'])),
  disk: diskAttack(Number(values['disk-conns']), Number(values['disk-mib']), 10_000),
  slots: slotsAttack(Number(values.slots)),
  cron: cronAttack(seconds('cron-wait'), values['cron-loop']),
};
const chosen = values.only.split(',').map((name) => {
  const attack = attacks[name.trim()];
  if (!attack) throw new Error(`--only: unknown attack "${name}" (choose from ${Object.keys(attacks).join(', ')})`);
  return attack;
});

/** Waits until the range uses under 0.3 of a core over 2 s, or `withinMs`; returns the last share. */
async function quiet(pid: number | undefined, withinMs: number): Promise<number> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const before = cpuSeconds(pid);
    await sleep(2_000);
    const share = (cpuSeconds(pid) - before) / 2;
    if (!(share > 0.3) || performance.now() > deadline) return share;
  }
}

type Row = { attack: string; victim: VictimFigures | null; baseline: BaselineFigures | null; notes: string };

// Whatever happens — an error, Ctrl-C, a range that never answers — the children and clients go.
const giveUp = setTimeout(() => {
  console.error(`bench/range-attacks: still running after --max-seconds ${values['max-seconds']}; stopping`);
  void closeAll().then(() => process.exit(2));
}, seconds('max-seconds'));
process.once('SIGINT', () => void closeAll().then(() => process.exit(130)));

const tag = Date.now().toString(36);
const passwords = buildWorld('bench').passwords;
const rows: Row[] = [];
const started = performance.now();
try {
  const rangePort = await freePort();
  const proxyPort = await freePort();
  const range = await startChild(
    join(import.meta.dirname, '../practice/main.ts'),
    ['--host', '127.0.0.1', '--port', String(rangePort), '--seed', 'bench', '--quiet'],
    {
      PRACTICE_HOST_KEY: join(import.meta.dirname, '../.state/bench/host_key'),
      PRACTICE_CRON_INTERVAL_MS: String(seconds('cron-interval')),
    },
  );
  await startChild(join(import.meta.dirname, '../ssh-proxy/main.ts'), [], {
    PROXY_PORT: String(proxyPort),
    PROXY_SECRET: SECRET,
    PRACTICE_HOST: '127.0.0.1',
    PRACTICE_PORT: String(rangePort),
    PROXY_SLICE_MS: '60000',
  });
  const proxy = { proxyUrl: `http://127.0.0.1:${proxyPort}`, proxySecret: SECRET };
  const victim = { port: rangePort, username: 'bandit1', password: passwords[1]!, from: VICTIM_FROM };
  const ctx: AttackContext = { port: rangePort, rangePid: range.pid, from: VICTIM_FROM, victim, passwords, tag };
  console.log(`bench/range-attacks — range pid ${range.pid} on 127.0.0.1:${rangePort}, ${new Date().toISOString()}`);
  console.log(`mode: ${MODE}; the other player (bandit1) and the proxy from ${VICTIM_FROM}`);
  // An older range ignores the variable and keeps cron's minute; say which one this run had.
  const honoured = readFileSync(join(import.meta.dirname, '../practice/main.ts'), 'utf8').includes(
    'PRACTICE_CRON_INTERVAL_MS',
  );
  console.log(
    honoured
      ? `cron interval: ${values['cron-interval']} s (PRACTICE_CRON_INTERVAL_MS)`
      : 'cron interval: 60 s (this practice/main.ts reads no PRACTICE_CRON_INTERVAL_MS)',
  );
  // Warm-up: one baseline run, so that the control is not the range's and proxy's first.
  const warm = await baselineRun(proxy, `run_warm${tag.padStart(16, '0')}`, RUN_TIMEOUT_MS);
  console.log(
    `warm-up baseline run: ${warm.levels} levels, ${warm.outcome}; range RSS ${rssMiB(range.pid).toFixed(0)} MiB`,
  );

  for (const [i, attack] of [noAttack, ...chosen].entries()) {
    const row: Row = { attack: attack.name, victim: null, baseline: null, notes: '' };
    try {
      // A command outlives its connection on the range, so the last attack's may still be running.
      const busy = await quiet(range.pid, seconds('settle'));
      if (busy > 0.3) row.notes = `range still at ${(busy * 100).toFixed(0)}% CPU from the last attack; `;
      // Each attack from an address of its own, so what the last one left queued does not slow it.
      const from = values['same-address'] ? VICTIM_FROM : `127.0.0.${1 + i}`;
      // The other player's own connection is opened before the attack, as a player already at work.
      const { client: held } = await withTimeout(calmLogin(victim, 60_000), 180_000, 'the other player logging in');
      const running = await withTimeout(attack.start({ ...ctx, from }), 180_000, `starting "${attack.name}"`);
      const runId = `run_attack${i}${tag.padStart(16, '0')}`;
      const baseline = baselineRun(proxy, runId, RUN_TIMEOUT_MS);
      const probe = running.probe?.catch((err: unknown) => `probe failed: ${messageOf(err)}`) ?? Promise.resolve('');
      const until = Promise.all([new Promise((resolve) => setTimeout(resolve, WINDOW_MS)), baseline, probe]);
      row.victim = await measureVictim(held, victim, until, COMMAND_TIMEOUT_MS);
      row.baseline = await baseline;
      await logout(held);
      const stopped = await withTimeout(running.stop(), 120_000, `stopping "${attack.name}"`);
      row.notes += [i > 0 ? `attackers from ${from}` : '', await probe, stopped].filter(Boolean).join('; ');
    } catch (err) {
      row.notes += `phase failed: ${messageOf(err)}`;
    }
    rows.push(row);
    console.log(`\n${tableRow(row)}`);
  }
} catch (err) {
  console.error(`bench/range-attacks: ${messageOf(err)}`);
  process.exitCode = 1;
} finally {
  await closeAll();
  clearTimeout(giveUp);
}

console.log(`\nbench/range-attacks — ${MODE}`);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s; victim = bandit1 running whoami`);
console.log(
  '| attack | whoami, open connection p50 / p99 / max (n) | login + whoami p50 / p99 / max (n) | victim errors / refusals | baseline levels | baseline outcome | baseline wall | notes |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(tableRow(row));

function tableRow({ attack, victim, baseline, notes }: Row): string {
  const errors = victim ? [...victim.errors].map(([m, n]) => `${n}× ${m}`).join('; ') || 'none' : '—';
  const cells = [
    attack,
    victim ? latencyCell(victim.open) : '—',
    victim ? latencyCell(victim.fresh) : '—',
    errors,
    baseline ? String(baseline.levels) : '—',
    baseline?.outcome ?? '—',
    baseline ? `${(baseline.wallMs / 1000).toFixed(1)} s` : '—',
    notes,
  ];
  return `| ${cells.map((c) => c.replaceAll('|', '\\|').replaceAll('\n', ' ')).join(' | ')} |`;
}
