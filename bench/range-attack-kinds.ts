// The four denial-of-service attacks of issue 33's security review, each run from the attackers' own
// loopback address with nothing but logins a player has: busy loops for the command queue, a /tmp
// fill, idle logins for every slot, and a looping script in bandit24's cron spool.
import type ssh2 from 'ssh2';
import type { Login } from './range-attack-support.ts';
import { login, logout, messageOf, rssMiB, run, sleep, withTimeout } from './range-attack-support.ts';

/** What an attack needs to know about the range and its players. */
export type AttackContext = {
  port: number;
  rangePid: number | undefined;
  /** The attackers' source address. */
  from: string;
  /** The other player's login (for probes that act as a second player). */
  victim: Login;
  passwords: readonly string[];
  /** Unique per benchmark run, so files of an earlier run are never mistaken for this one's. */
  tag: string;
};

/** An attack under way: an optional probe of its own effect, and how to end it (both return notes). */
export type RunningAttack = { probe?: Promise<string>; stop(): Promise<string> };

export type Attack = { name: string; start(ctx: AttackContext): Promise<RunningAttack> };

const tally = (errors: Map<string, number>): string =>
  [...errors].map(([message, n]) => `${n}× ${JSON.stringify(message)}`).join(', ');

/** Logs `n` clients in as `user`, `parallel` at a time; those refused are counted by message. */
async function loginMany(ctx: AttackContext, user: number, n: number, parallel: number) {
  const clients: ssh2.Client[] = [];
  let closed = 0;
  const refused = new Map<string, number>();
  const as: Login = { port: ctx.port, username: `bandit${user}`, password: ctx.passwords[user]!, from: ctx.from };
  let next = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      try {
        const client = await login(as);
        client.on('close', () => closed++);
        clients.push(client);
      } catch (err) {
        refused.set(messageOf(err), (refused.get(messageOf(err)) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  const note = `${clients.length} of ${n} attackers logged in${refused.size ? ` (refused: ${tally(refused)})` : ''}`;
  return {
    clients,
    note,
    alive: () => clients.length - closed,
    leave: () => Promise.all(clients.map(logout)),
  };
}

/** Nothing: the control row. */
export const noAttack: Attack = { name: 'none (control)', start: async () => ({ stop: async () => '' }) };

/** Each connection runs a CPU-bound line, again as soon as the range ends it. */
export const queueAttack = (connections: number): Attack => ({
  name: `command queue: ${connections} busy loops`,
  async start(ctx) {
    const { clients, note, leave } = await loginMany(ctx, 0, connections, 8);
    let stopped = false;
    const ends = new Map<string, number>();
    const loops = clients.map(async (client) => {
      while (!stopped) {
        const result = await run(client, 'while true; do :; done', 300_000).catch(() => null);
        if (!result) return;
        const key = `exit ${result.code}`;
        ends.set(key, (ends.get(key) ?? 0) + 1);
      }
    });
    await sleep(1_000);
    return {
      async stop() {
        stopped = true;
        await leave();
        await Promise.allSettled(loops);
        return `${note}; loops the range ended: ${tally(ends) || 'none'}`;
      },
    };
  },
});

/** Each connection appends to its own /tmp file up to `mib` MiB; the range's RSS is sampled throughout. */
export const diskAttack = (connections: number, mib: number, settleMs: number): Attack => ({
  name: `disk: ${connections} × ${mib} MiB into /tmp`,
  async start(ctx) {
    const before = rssMiB(ctx.rangePid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(ctx.rangePid))), 250);
    const { clients, note, leave } = await loginMany(ctx, 0, connections, 8);
    const refusals = new Map<string, number>();
    const file = (i: number) => `/tmp/bench-fill-${ctx.tag}-${i}`;
    let stored = 0;
    // just-bash caps a command line's output at 4 MiB, the 1 MiB chunk included: 2 MiB per command.
    const writers = clients.map(async (client, i) => {
      for (let done = 0; done < mib; done += 2) {
        const line = `x=$(printf "%1048576s" ""); printf %s "$x" >> ${file(i)} && printf %s "$x" >> ${file(i)}`;
        const result = await run(client, line, 60_000).catch((err: unknown) => ({ code: -1, stderr: messageOf(err) }));
        if (result.code === 0) continue;
        const reason = result.stderr.trim().split('\n')[0] ?? `exit ${result.code}`;
        refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
        break;
      }
      const size = await run(client, `wc -c < ${file(i)}`, 60_000).catch(() => null);
      stored += Number(size?.stdout.trim()) || 0;
    });
    // The other player, meanwhile, tries to keep 1 MiB of its own once the attackers are done.
    const probe = (async () => {
      await withTimeout(Promise.all(writers), 180_000, 'the attackers writing');
      const player = await login(ctx.victim);
      try {
        const line = `printf "%1048576s" "" > /tmp/bench-probe-${ctx.tag} && rm /tmp/bench-probe-${ctx.tag}`;
        const result = await run(player, line, 60_000);
        return `other player's 1 MiB write: ${result.code === 0 ? 'ok' : JSON.stringify(result.stderr.trim())}`;
      } finally {
        await logout(player);
      }
    })();
    return {
      probe,
      async stop() {
        clearInterval(sampler);
        await Promise.allSettled(writers);
        await Promise.allSettled(clients.map((client, i) => run(client, `rm -f ${file(i)}`, 60_000)));
        await leave();
        await sleep(settleMs);
        const after = rssMiB(ctx.rangePid);
        // The workers the attack made the range start are let go after a quiet minute; their memory with them.
        await sleep(Math.max(0, 70_000 - settleMs));
        const later = rssMiB(ctx.rangePid);
        const f = (v: number) => v.toFixed(0);
        return `${note}; stored ${(stored / 2 ** 20).toFixed(1)} MiB; writes ended by: ${tally(refusals) || 'nothing (all written)'}; range RSS ${f(before)} → peak ${f(peak)} → ${f(after)} MiB ${settleMs / 1000} s after removal → ${f(later)} MiB 70 s after`;
      },
    };
  },
});

/** Idle logins, kept alive by keep-alives, up to `logins`. */
export const slotsAttack = (logins: number): Attack => ({
  name: `slots: ${logins} idle logins`,
  async start(ctx) {
    const { note, alive, leave } = await loginMany(ctx, 0, logins, 16);
    return {
      async stop() {
        const held = alive();
        await leave();
        return `${note}; ${held} still held at the end`;
      },
    };
  },
});

/** A command line that writes an executable bash script of these lines to `path`. */
function script(path: string, lines: string[]): string {
  const quoted = ['#!/bin/bash', ...lines].map((line) => `'${line.replaceAll("'", "'\\''")}'`);
  return `printf '%s\\n' ${quoted.join(' ')} > ${path} && chmod 777 ${path}`;
}

/**
 * bandit23 plants a looping script in cron's spool and stays; another bandit23 then plants a real one
 * and waits for its result. Both scripts note when they started, so the note can tell the wait for
 * cron's next round from the wait behind the loop.
 */
export const cronAttack = (waitMs: number, loopLine: string): Attack => ({
  name: `cron: spool script \`${loopLine}\``,
  async start(ctx) {
    const spool = '/var/spool/bandit24/foo';
    const as23 = { username: 'bandit23', password: ctx.passwords[23]! };
    const marks = `/tmp/bench-cron-${ctx.tag}`;
    const attacker = await login({ ...ctx.victim, ...as23, from: ctx.from });
    // Named to sort first: the job runs the spool's scripts in glob order.
    const loop = script(`${spool}/0-loop-${ctx.tag}.sh`, [`date +%s > ${marks}/loop-began`, loopLine]);
    await run(attacker, `mkdir -p ${marks} && chmod 777 ${marks} && ${loop}`, 90_000);
    const probe = (async () => {
      const player = await login({ ...ctx.victim, ...as23 });
      try {
        const copy = [`date +%s > ${marks}/copy-began`, `cat /etc/bandit_pass/bandit24 > ${marks}/pass`];
        await run(player, script(`${spool}/z-copy-${ctx.tag}.sh`, copy), 90_000);
        const planted = performance.now();
        while (performance.now() - planted < waitMs) {
          const read = await run(player, `cat ${marks}/pass 2>/dev/null`, 30_000).catch(() => null);
          if (read?.stdout.trim() === ctx.passwords[24]) {
            const after = ((performance.now() - planted) / 1000).toFixed(0);
            const both = `echo "$(cat ${marks}/loop-began 2>/dev/null) $(cat ${marks}/copy-began)"`;
            const [loopAt, copyAt] = (await run(player, both, 30_000)).stdout.trim().split(' ').map(Number);
            const behind = loopAt && copyAt ? `it ran ${copyAt - loopAt} s after the loop began` : 'the loop never ran';
            return `the other player's script's result after ${after} s (${behind})`;
          }
          await sleep(2_000);
        }
        return `no result from the other player's script within ${(waitMs / 1000).toFixed(0)} s`;
      } finally {
        await logout(player);
      }
    })();
    return {
      probe,
      async stop() {
        await logout(attacker);
        return 'loop planted by bandit23, its connection kept open until now';
      },
    };
  },
});
