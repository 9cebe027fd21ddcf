// The proxy's terminal relay (GET /v1/terminal) against the real practice range, opened as the worker
// opens it: a PTY login as the level's user, output relayed as base64, `cat` of the next password
// proved by a login, resize, level 25 played through bandit26's pager (ssh, more, vi, :e: proved), level
// 26's pager login with full-screen output at a new size, hostile frames, and the
// refusals: no secret, an Origin, a bad first frame, a failed login, other paths.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayFromProxy } from '../../schema/terminal.ts';
import { RelayClient } from '../support/relay-client.ts';
import { upgradeAnswer } from '../support/upgrade-probe.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let services: LoopbackServices;
beforeAll(async () => {
  services = await startLoopbackServices();
});
afterAll(() => services.close());

const RUN = 'run_terminalrelay0000000000';
const pass = (n: number) => services.range.world.passwords[n]!;
const clients: RelayClient[] = [];

async function openRelay(level: number, extra: Partial<{ password: string | null; rows: number; runId: string }> = {}) {
  const relay = new RelayClient(services.proxyUrl, services.proxySecret);
  clients.push(relay);
  await relay.ready();
  relay.send({
    type: 'open',
    runId: extra.runId ?? RUN,
    target: 'practice',
    level,
    password: extra.password === undefined ? (level === 0 ? null : pass(level)) : extra.password,
    cols: 80,
    rows: extra.rows ?? 24,
  });
  return relay;
}
afterAll(() => {
  for (const c of clients) c.socket.terminate();
});

const ofType = <T extends RelayFromProxy['type']>(frames: RelayFromProxy[], type: T) =>
  frames.filter((f): f is Extract<RelayFromProxy, { type: T }> => f.type === type);

describe('the terminal relay', () => {
  it('logs in with a PTY, relays keystrokes and output, proves the next password, and closes on exit', async () => {
    const relay = await openRelay(0);
    await relay.until('opened', (c) => c.frames.some((f) => f.type === 'opened'));
    await relay.expect(/bandit0@practice:~\$ /);
    relay.type('echo hi\r');
    await relay.expect(/\r\nhi\r\n/);
    expect(ofType(relay.frames, 'proved')).toEqual([]);
    relay.type('cat readme\r');
    await relay.until('proved', (c) => c.frames.some((f) => f.type === 'proved'));
    expect(ofType(relay.frames, 'proved')).toEqual([{ type: 'proved', level: 0, password: pass(1) }]);
    expect(services.proxy.openTerminals()).toBe(1);
    relay.type('exit\r');
    expect(await relay.closed).toMatchObject({ code: 1000 });
    expect(ofType(relay.frames, 'closed')[0]?.message).toMatch(/the shell ended/);
    // Every output frame is within the schema's size, and the password typed in never came back.
    expect(relay.frames.at(-1)?.type).toBe('closed');
  });

  it("level 26's login is the pager: more stops in a small terminal, a resize reaches the PTY, and vi draws at the new size", async () => {
    const relay = await openRelay(26, { rows: 4 });
    await relay.expect(/--More--\(\d+%\)/);
    relay.send({ type: 'resize', cols: 80, rows: 20 });
    // The resize is a window-change on the channel; vi draws rows-1 lines at the size it finds.
    await new Promise((r) => setTimeout(r, 200));
    const before = relay.output.length;
    relay.type('v');
    await relay.until('vi drawn', (c) => (c.output.slice(before).match(/~\x1b\[K/g) ?? []).length >= 10);
    relay.type(':e /etc/bandit_pass/bandit26\r');
    await relay.expect(new RegExp(pass(26)));
    // The level's own password is not a proof of anything.
    relay.type(':q\r');
    relay.send({ type: 'close' });
    expect((await relay.closed).code).toBe(1000);
    expect(ofType(relay.frames, 'proved')).toEqual([]);
  });

  it('level 25 the way it is played: ssh into bandit26 lands in more; v opens vi; :e shows the password, proved', async () => {
    const relay = await openRelay(25, { rows: 5, runId: 'run_terminallevel25000000000' });
    await relay.expect(/bandit25@practice:~\$ /);
    relay.type('ssh -i bandit26.sshkey bandit26@localhost -p 2220\r');
    await relay.expect(/--More--\(\d+%\)/);
    relay.type('v');
    await relay.until('vi drawn', (c) => /~\x1b\[K/.test(c.output));
    relay.type(':e /etc/bandit_pass/bandit26\r');
    await relay.until('proved', (c) => c.frames.some((f) => f.type === 'proved'));
    expect(ofType(relay.frames, 'proved')).toEqual([{ type: 'proved', level: 25, password: pass(26) }]);
    relay.send({ type: 'close' });
    expect((await relay.closed).code).toBe(1000);
  });

  it('relays a flood of output whole and in order: seq 1 100000 arrives as 100,000 lines', async () => {
    const relay = await openRelay(0, { runId: 'run_terminalflood0000000000' });
    await relay.expect(/\$ $/);
    const before = relay.output.length;
    relay.type('seq 1 100000\r');
    await relay.until('the prompt after seq', (c) => /\r\n100000\r\n[\s\S]*\$ $/.test(c.output.slice(before)), 60_000);
    const lines = relay.output
      .slice(before)
      .split('\r\n')
      .filter((l) => /^\d+$/.test(l));
    expect(lines).toHaveLength(100_000);
    expect(lines.every((l, i) => Number(l) === i + 1)).toBe(true);
    relay.send({ type: 'close' });
    await relay.closed;
  });

  it('one terminal per run: a second open closes the older one, saying why', async () => {
    const runId = 'run_terminaltwice0000000000';
    const first = await openRelay(0, { runId });
    await first.expect(/\$ /);
    const second = await openRelay(0, { runId });
    await second.expect(/\$ /);
    expect(await first.closed).toMatchObject({ code: 1000 });
    expect(ofType(first.frames, 'closed')[0]?.message).toMatch(/another terminal was opened/);
    second.type('echo still here\r');
    await second.expect(/\r\nstill here\r\n/);
    second.send({ type: 'close' });
    await second.closed;
  });

  it('a login that fails says so without the password, and closes', async () => {
    const relay = await openRelay(1, { password: 'x'.repeat(32) });
    expect(await relay.closed).toMatchObject({ code: 1000 });
    const closed = ofType(relay.frames, 'closed');
    expect(closed[0]?.message).toMatch(/^the login as bandit1 failed: .*refused/);
    expect(JSON.stringify(relay.frames)).not.toContain('x'.repeat(32));
    expect(ofType(relay.frames, 'opened')).toEqual([]);
  });

  it('closes 1008 with a reason for a first frame that is not open, bad JSON, a bad size, or a second open', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'input', data: 'ls\r' }, /first frame must be/],
      ['not json', /not JSON/],
      [{ type: 'open', runId: RUN, target: 'practice', level: 0, password: null, cols: 3, rows: 24 }, /cols/],
      [{ type: 'open', runId: RUN, target: 'nowhere', level: 0, password: null, cols: 80, rows: 24 }, /target/],
      [{ type: 'open', runId: RUN, target: 'practice', level: 5, password: null, cols: 80, rows: 24 }, /password/],
      [{ type: 'resize', cols: 80 }, /rows/],
    ];
    for (const [frame, reason] of cases) {
      const relay = new RelayClient(services.proxyUrl, services.proxySecret);
      clients.push(relay);
      await relay.ready();
      relay.send(typeof frame === 'string' ? frame : (frame as Record<string, unknown>));
      const closed = await relay.closed;
      expect(closed.code).toBe(1008);
      expect(closed.reason).toMatch(reason);
    }
    const twice = await openRelay(0, { runId: 'run_terminalreopen000000000' });
    await twice.expect(/\$ /);
    twice.send({ type: 'open', runId: RUN, target: 'practice', level: 0, password: null, cols: 80, rows: 24 });
    expect(await twice.closed).toMatchObject({ code: 1008, reason: expect.stringMatching(/already open/) });
  });

  it('closes 1008 with a reason for each of 300 hostile first frames, and 1009 for one over 64 KiB', async () => {
    const nearOpen = fc.record(
      {
        type: fc.constantFrom('open', 'input', 'resize', 'close', 'OPEN', ''),
        runId: fc.oneof(fc.string(), fc.constant(RUN)),
        target: fc.oneof(fc.string(), fc.constant('practice')),
        level: fc.oneof(fc.integer(), fc.double(), fc.string()),
        password: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        cols: fc.oneof(fc.integer({ min: -5, max: 9 }), fc.integer({ min: 501 })),
        rows: fc.integer(),
        extra: fc.anything(),
      },
      { requiredKeys: ['type'] },
    );
    const frames = fc.sample(
      fc.oneof(
        fc.string().map((t) => `{${t}`),
        fc.jsonValue().map((v) => JSON.stringify(v)),
        nearOpen.map((o) => JSON.stringify(o)),
      ),
      { numRuns: 300, seed: 30 },
    );
    const codes = new Map<number, number>();
    for (const frame of frames) {
      const relay = new RelayClient(services.proxyUrl, services.proxySecret);
      await relay.ready();
      relay.send(frame);
      const closed = await relay.closed;
      codes.set(closed.code, (codes.get(closed.code) ?? 0) + 1);
      expect(closed.reason.length).toBeGreaterThan(0);
      expect(relay.frames).toEqual([]);
    }
    expect([...codes.keys()]).toEqual([1008]);
    const big = new RelayClient(services.proxyUrl, services.proxySecret);
    await big.ready();
    big.type('x'.repeat(70 * 1024));
    expect((await big.closed).code).toBe(1009);
    console.log(
      `[relay] ${frames.length} hostile first frames: ${[...codes].map(([c, n]) => `${n} × ${c}`).join(', ')}; 1 oversize frame: 1009`,
    );
    expect(services.proxy.openTerminals()).toBe(0);
    expect((await fetch(`${services.proxyUrl}/health`)).status).toBe(200);
  });

  it('refuses an upgrade without the secret (401), with an Origin (403), and on any other path (403)', async () => {
    const status = (secret: string | null, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const relay = new RelayClient(services.proxyUrl, secret, headers);
        relay.socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        relay.socket.on('open', () => resolve(101));
        relay.socket.on('error', () => undefined);
      });
    expect(await status(null)).toBe(401);
    expect(await status('not-the-secret-at-all')).toBe(401);
    expect(await status(services.proxySecret, { origin: 'http://127.0.0.1:8787' })).toBe(403);
    const other = await upgradeAnswer({ port: services.proxy.port, path: '/v1/advance', origin: 'http://x' });
    expect(other.text).toMatch(/^HTTP\/1\.1 403 /);
    expect(other.closed).toBe(true);
    // The proxy still answers HTTP after all of it.
    expect((await fetch(`${services.proxyUrl}/health`)).status).toBe(200);
  });

  it('a proxy that stops ends its terminals, saying so, and logs them out', async () => {
    const own = await startLoopbackServices();
    try {
      const relay = new RelayClient(own.proxyUrl, own.proxySecret);
      clients.push(relay);
      await relay.ready();
      relay.send({ type: 'open', runId: RUN, target: 'practice', level: 0, password: null, cols: 80, rows: 24 });
      await relay.expect(/\$ $/);
      await own.proxy.close();
      expect(await relay.closed).toMatchObject({ code: 1000 });
      expect(ofType(relay.frames, 'closed')).toEqual([{ type: 'closed', message: 'the proxy is stopping' }]);
      expect(own.proxy.openTerminals()).toBe(0);
    } finally {
      await own.range.close();
    }
  });
});
