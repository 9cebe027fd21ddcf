// The proxy's SSH client against the real range over TCP: one connection reused across commands,
// reconnect after a drop, per-command timeout, output capped head and tail, and the three ways a
// login fails told apart. A drop once the command was sent is a lost command, not sent again (against an
// ssh2 server that drops the connection when the exec request arrives).
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROPPED_COMMAND_NOTE } from '../../schema/lost-command.ts';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { SessionPool } from '../../ssh-proxy/ssh/session-pool.ts';
import type { PoolOptions } from '../../ssh-proxy/ssh/session-pool.ts';
import { createTargets } from '../../ssh-proxy/targets/targets.ts';
import { freePort } from '../support/free-port.ts';

let range: RunningRange;
let silent: Server;
let silentPort: number;
const pools: SessionPool[] = [];
beforeAll(async () => {
  range = await startRange({ host: '127.0.0.1', port: 0, hostKey: loadHostKey(null), seed: 'ssh-session' });
  // Accepts TCP and never speaks: an SSH handshake that never finishes.
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  for (const pool of pools) pool.closeAll();
  silent.close();
  await range.close();
});

const signal = new AbortController().signal;
function shell(port: number, options: Partial<PoolOptions> = {}) {
  const pool = new SessionPool({
    connectTimeoutMs: 2_000,
    commandTimeoutMs: 5_000,
    maxOutputBytes: 64 * 1024,
    idleMs: 60_000,
    ...options,
  });
  pools.push(pool);
  const target = createTargets({ practice: { host: '127.0.0.1', port }, bandit: { host: '127.0.0.1', port } }).practice;
  return { pool, shell: pool.shellFor('run_ssh', target) };
}

describe('SSH sessions', () => {
  it('reuses one connection for every command at a level', async () => {
    const { shell: s, pool } = shell(range.port);
    const before = range.connections();
    for (const command of ['whoami', 'ls', 'cat readme']) {
      const result = await s.exec(0, 'bandit0', command, signal);
      expect(result).toMatchObject({ ok: true, exitCode: 0 });
    }
    expect(range.connections() - before).toBe(1);
    pool.release('run_ssh');
  });

  it('reconnects after the connection drops', async () => {
    const { shell: s } = shell(range.port);
    expect(await s.exec(0, 'bandit0', 'true', signal)).toMatchObject({ ok: true });
    range.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await s.exec(0, 'bandit0', 'whoami', signal)).toMatchObject({ ok: true, stdout: 'bandit0\n' });
  });

  it('leaves no connection behind when a login is aborted while it connects', async () => {
    const { shell: s } = shell(range.port);
    const before = range.connections();
    for (let i = 0; i < 5; i++) {
      const abort = new AbortController();
      const login = s.login(0, 'bandit0', abort.signal);
      // Aborted once the TCP connection is up but before the SSH login is done.
      await new Promise((resolve) => setTimeout(resolve, 1));
      abort.abort();
      expect(await login).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    }
    // Every half-made login finishes its handshake and is then ended, not kept on keepalive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(range.connections()).toBe(before);
  });

  it('stops a command that outlives the timeout and says so', async () => {
    const { shell: s } = shell(range.port, { commandTimeoutMs: 300 });
    const result = await s.exec(0, 'bandit0', 'sleep 5', signal);
    expect(result).toMatchObject({
      ok: true,
      exitCode: null,
      timedOut: true,
      stderr: expect.stringMatching(/no answer within 0\.3 s/),
    });
  });

  it('caps output, keeping the head and the tail', async () => {
    const { shell: s } = shell(range.port, { maxOutputBytes: 2048 });
    const result = await s.exec(0, 'bandit0', 'seq 1 20000', signal);
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.stdout.endsWith('19999\n20000\n')).toBe(true);
    expect(result.stdout).toMatch(/\[\d+ bytes cut\]/);
    expect(result.stdout.length).toBeLessThan(2200);
  });

  it('tells a refused login, an unreachable host and a silent host apart', async () => {
    expect(await shell(range.port).shell.login(0, 'wrong', signal)).toMatchObject({
      ok: false,
      failure: { kind: 'auth' },
    });
    const closed = await freePort();
    expect(await shell(closed).shell.login(0, 'bandit0', signal)).toMatchObject({
      ok: false,
      failure: { kind: 'unreachable', message: expect.stringMatching(/ECONNREFUSED/) },
    });
    expect(await shell(silentPort, { connectTimeoutMs: 300 }).shell.login(0, 'bandit0', signal)).toMatchObject({
      ok: false,
      failure: { kind: 'timeout' },
    });
  });

  it('answers a command whose connection dropped once it was sent as lost, and does not send it again', async () => {
    // Drops the connection when the first exec request arrives (the command may have run), serves the next.
    const execs: string[] = [];
    const server = new ssh2.Server({ hostKeys: [loadHostKey(null)] }, (client) => {
      client.on('authentication', (ctx) => ctx.accept());
      client.on('ready', () =>
        client.on('session', (accept) => {
          const channel = accept();
          channel.on('exec', (acceptExec, _reject, info) => {
            execs.push(info.command);
            if (execs.length === 1) return (client as unknown as { _sock: { destroy(): void } })._sock.destroy();
            const stream = acceptExec();
            stream.write(`ran ${info.command}\n`);
            stream.exit(0);
            stream.end();
          });
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { shell: s } = shell((server.address() as { port: number }).port);
      expect(await s.exec(0, 'bandit0', 'touch /tmp/once', signal)).toMatchObject({
        ok: true,
        stdout: '',
        stderr: DROPPED_COMMAND_NOTE,
        exitCode: null,
      });
      expect(execs).toEqual(['touch /tmp/once']);
      // The next command goes on a new connection.
      expect(await s.exec(0, 'bandit0', 'whoami', signal)).toMatchObject({ ok: true, stdout: 'ran whoami\n' });
      expect(execs).toEqual(['touch /tmp/once', 'whoami']);
    } finally {
      server.close();
    }
  });
});
