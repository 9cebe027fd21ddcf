// The property the run socket client exists for: whatever a server or the network does — close or cut
// mid-batch or mid-frame, drop between a snapshot and its events, repeat and overlap batches, skip seqs,
// refuse the upgrade, send junk — the client reports every event exactly once, in seq order, and ends
// with the view a clean fold gives.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { reconnectDelay } from '../../schema/reconnect-backoff.ts';
import { applyEvents, applySnapshot, initialViewState } from '../../schema/run-view-state.ts';
import { followed, recordingTimers, SOCKET_TOKEN } from '../support/run-socket-harness.ts';
import type { ScriptedSocket } from '../support/scripted-run-server.ts';
import { startScriptedRunServer } from '../support/scripted-run-server.ts';
import { SOCKET_RUN_ID, socketRunLog } from '../support/socket-run-log.ts';

const FAULTS = [
  'none',
  'close',
  'terminate',
  'cut_mid_frame',
  'gap',
  'close_after_snapshot',
  'terminate_after_snapshot',
  'refuse',
] as const;
type Fault = (typeof FAULTS)[number];

/** How one connection is served: batch sizes (cycled), how far each batch reaches back, and its fault. */
type Plan = { sizes: number[]; overlap: number; fault: Fault; at: number; noise: boolean };

const planArb: fc.Arbitrary<Plan> = fc.record({
  sizes: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 6 }),
  overlap: fc.integer({ min: 0, max: 4 }),
  fault: fc.constantFrom(...FAULTS),
  at: fc.nat(6),
  noise: fc.boolean(),
});

const messageOf = (events: RunEvent[]): ServerMessage =>
  events.length === 1 ? { type: 'event', event: events[0]! } : { type: 'events', events };

/** Every fault the property met, summed over all runs, for the report. */
const met: Record<Fault, number> = Object.fromEntries(FAULTS.map((f) => [f, 0])) as Record<Fault, number>;
let runs = 0;
let sockets = 0;
let eventsSeen = 0;
/** Events sent again by overlapping batches, and frames that were junk or of an unknown type. */
let repeats = 0;
let junk = 0;

/** Serves one connection by its plan; a plan's fault happens at batch `at` (or never, if the log ends first). */
function serve(socket: ScriptedSocket, plan: Plan, events: RunEvent[], snapshot: ServerMessage): void {
  const n = events.length;
  socket.send({ type: 'welcome', protocolVersion: 1, runId: SOCKET_RUN_ID });
  // Live messages before the snapshot: the snapshot's own live text and queue place replace them.
  if (plan.noise) socket.send({ type: 'thinking_delta', level: 0, stage: 'plan', text: 'half a thought' });
  if (plan.noise) socket.send({ type: 'queue', position: 2 });
  socket.send(snapshot);
  if (plan.fault === 'close_after_snapshot' || plan.fault === 'terminate_after_snapshot') met[plan.fault] += 1;
  if (plan.fault === 'close_after_snapshot') return socket.close(1012);
  if (plan.fault === 'terminate_after_snapshot') return socket.terminate();
  let next = socket.since + 1;
  for (let j = 0; next <= n; j++) {
    const size = plan.sizes[j % plan.sizes.length]!;
    const from = Math.max(1, next - plan.overlap);
    const to = Math.min(n, next + size - 1);
    const message = messageOf(events.slice(from - 1, to));
    if (j === plan.at && plan.fault !== 'none' && plan.fault !== 'refuse') {
      met[plan.fault] += 1;
      // A gap: the batch without its first new event; the client must close with 4000 and come back.
      if (plan.fault === 'gap' && next < n) return socket.send(messageOf(events.slice(next, to + 1)));
      if (plan.fault === 'cut_mid_frame') return socket.cutMidFrame(message);
      socket.send(message);
      return plan.fault === 'terminate' ? socket.terminate() : socket.close(1001);
    }
    socket.send(message);
    repeats += next - from;
    if (plan.noise) junk += 2;
    if (plan.noise) {
      socket.sendRaw('{"type": "events", "events": [');
      socket.send({ type: 'from_a_newer_server' });
      socket.send({ type: 'pong', ts: events[0]!.ts });
    }
    next = to + 1;
  }
}

describe('RunSocketClient under dropped sockets', () => {
  afterAll(() => {
    // The figures for docs/reliability.md; printed, never asserted.
    const { none: _, ...faults } = met;
    const totals = `${runs} runs, ${sockets} sockets, ${eventsSeen} events, ${repeats} repeated, ${junk} junk frames`;
    console.log(`socket-drop property: ${totals}; faults met`, faults);
  });

  it('reports every event exactly once, in order, and ends with the clean fold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 3, max: 90 }), fc.array(planArb, { maxLength: 8 }), async (n, plans) => {
        const { events, snapshot } = socketRunLog(n);
        const clean: Plan = { sizes: [n], overlap: 0, fault: 'none', at: 0, noise: false };
        const server = await startScriptedRunServer(
          (socket, index) => serve(socket, plans[index] ?? clean, events, { type: 'snapshot', ...snapshot }),
          (index) => plans[index]?.fault === 'refuse',
        );
        const { timers, delays } = recordingTimers();
        const { client, seen } = followed(server, timers);
        try {
          const view = await client.waitFor((s) => s.lastSeq === n);
          runs += 1;
          sockets += server.upgrades.length;
          eventsSeen += seen.length;
          met.refuse += server.upgrades.filter((u) => u.refused).length;
          expect(seen.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
          expect(seen).toEqual(events);
          expect(view).toEqual(applyEvents(applySnapshot(initialViewState, snapshot), events).state);
          const since = server.upgrades.map((u) => Number(u.url.split('since=')[1]));
          expect(since).toEqual([...since].sort((a, b) => a - b));
          for (const upgrade of server.upgrades) {
            expect(upgrade.url).not.toContain(SOCKET_TOKEN);
            expect(upgrade.protocols).toEqual([WS_SUBPROTOCOL, `token.${SOCKET_TOKEN}`]);
          }
          // One wait per socket that ended (the last may end after the run was whole), each by the one policy.
          const policy = new Set(Array.from({ length: 10 }, (_, i) => reconnectDelay(i)));
          expect([server.upgrades.length - 1, server.upgrades.length]).toContain(delays.length);
          expect(delays.every((d) => policy.has(d))).toBe(true);
        } finally {
          client.close();
          await server.close();
        }
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
