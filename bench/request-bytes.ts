// Bytes stored in D1 per model call, over one 15-command attempt: the request whole (as before) and
// as a delta against the previous call (schema/request-delta.ts). Uses the proxy's real prompt
// builder with 600 bytes of command output per turn. `npm run bench:request-bytes`.
import { encodeRequest, rebuildRequest } from '../schema/request-delta.ts';
import type { Turn } from '../ssh-proxy/agent/bandit-state.ts';
import { planMessages, TOOLS } from '../ssh-proxy/models/openai-prompts.ts';

const BUDGET = 15;
const output = (i: number) =>
  `total 24\n${Array.from({ length: 10 }, (_, k) => `-rw-r----- 1 bandit5 bandit5 ${1000 + i * 10 + k} Nov 22 file-${i}-${k}.txt`).join('\n')}`.slice(
    0,
    600,
  );

const history: Turn[] = [];
const stored = new Map<string, unknown>();
let previous: unknown = null;
let previousId: string | null = null;
const rows: { call: number; whole: number; delta: number }[] = [];
for (let call = 1; call <= BUDGET; call++) {
  const request = {
    model: 'gpt-4o-mini',
    messages: planMessages({
      level: 5,
      goal: 'The password is in a human-readable file under inhere, 1033 bytes in size.',
      currentPassword: 'x'.repeat(32),
      lessons: [],
      history,
      attempt: 1,
      budgetLeft: BUDGET - call + 1,
      tried: [],
    }),
    tools: TOOLS,
    tool_choice: 'auto',
  };
  const id = `run_bench:${call}`;
  const encoded = encodeRequest(previous, previousId, request);
  stored.set(id, encoded);
  if (JSON.stringify(rebuildRequest(id, (k) => stored.get(k))) !== JSON.stringify(request))
    throw new Error(`call ${call} does not rebuild`);
  rows.push({ call, whole: JSON.stringify(request).length, delta: JSON.stringify(encoded).length });
  previous = request;
  previousId = id;
  history.push({
    kind: 'command',
    callId: `call_${call}`,
    thinking: 'Looking at the files.',
    command: `ls -la inhere/maybehere0${call}`,
    output: output(call),
    exitCode: 0,
  });
}

const total = (key: 'whole' | 'delta') => rows.reduce((sum, r) => sum + r[key], 0);
console.log('| call | request whole (bytes) | stored as delta (bytes) |');
console.log('|---|---|---|');
for (const r of rows.filter((r) => [1, 2, 5, 10, 15].includes(r.call)))
  console.log(`| ${r.call} | ${r.whole} | ${r.delta} |`);
console.log(`| all ${BUDGET} | ${total('whole')} | ${total('delta')} |`);
