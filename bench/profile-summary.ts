// bench/profile-summary: reads V8 .cpuprofile files (node --cpu-prof, or the worker's profile taken
// through wrangler dev's inspector by bench/stack --profile) and prints where the time went: self
// time per function and per source file, busiest first, and per stage of an agent cycle (each sample
// goes to the innermost function on its stack that names a stage, so a stage includes what it calls).
// Usage: node bench/profile-summary.ts FILE… [--top 25]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});

/** The stages of a cycle by the functions that do them, in the worker (bundled, so by name) and the proxy. */
const STAGES: [stage: string, pattern: RegExp][] = [
  ['model-request deltas for D1', /^(encodeTraces|encodeRequest|diffMessages|messageTexts)\b/],
  [
    'checkpoint: patch / store / read',
    /^(patchCheckpoint|patch|read|write|stored|insert|diffCheckpoint|applyCheckpointPatch)\b.*(index\.js|checkpoint)/,
  ],
  ['checkpoint: validation', /^loadCheckpoint\b/],
  ['DO transaction (events, roll-ups, run row, outbox)', /^(storeStep|transactionSync)\b/],
  ['NDJSON: parse and validate (worker)', /^parseLine\b/],
  ['NDJSON: read the stream (worker)', /^callProxy\b/],
  ['broadcast to sockets', /^(broadcast|sendToLive|sendAll|live)\b.*index\.js/],
  ['D1 mirror (send)', /^(drain|flush|sendToD1|mirror)\b/],
  ['socket replay', /^(replay|eventTextAfter)\b/],
  ['NDJSON: encode and write (proxy)', /^(write|flush|oversized)\b.*call-stream/],
  ['graph engine', /^run\b.*compiled-graph/],
  ['SSH (ssh2)', /pkg ssh2/],
  ['model client (openai SDK)', /pkg openai/],
  ['HTTP (undici / node:http)', /undici|_http_|node:http/],
];
const TOP = Number(values.top);

/**
 * The time each sample stands for, in ms: the gap to the next sample, but at most twice the usual
 * interval. The worker's profiler (workerd) takes samples only while the isolate runs, so a gap of
 * seconds after a sample is the object waiting, not that function working; counting the whole gap
 * once put 33% of a run in applyCheckpointPatch and 56% in SQLite's exec. The rest of a long gap
 * counts as "(not sampled)".
 */
function sampleTimes(profile: Profile): { times: number[]; unsampled: number } {
  const gaps = profile.samples.map((_, i) => (profile.timeDeltas[i + 1] ?? 0) / 1000);
  const usual = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
  const times = gaps.map((gap) => Math.min(gap, 2 * usual));
  return { times, unsampled: gaps.reduce((sum, gap, i) => sum + gap - times[i]!, 0) };
}

/** Self time in ms per key, from the samples and the time each stands for. */
function selfTimes(profile: Profile, key: (node: ProfileNode) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const { times: ms, unsampled } = sampleTimes(profile);
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const k = key(node);
    times.set(k, (times.get(k) ?? 0) + ms[i]!);
  });
  if (unsampled > 0) times.set('(not sampled)', unsampled);
  return times;
}

/** A readable source name: the project's own path, or the package a file comes from. */
function sourceOf(url: string, name = ''): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  const own = /\/(schema|worker|ssh-proxy|practice|bench|scripts|test)\/(.+)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url.startsWith('node:') ? url : basename(url);
}

/** Time per stage: each sample goes to the innermost frame on its stack that matches a stage. */
function stageTimes(profile: Profile): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName} ${sourceOf(n.callFrame.url, n.callFrame.functionName)}`;
  const stageOf = new Map<number, string>();
  const find = (id: number): string => {
    const known = stageOf.get(id);
    if (known) return known;
    const node = byId.get(id);
    if (!node) return 'other';
    if (node.callFrame.functionName === '(idle)') return '(idle)';
    const own = STAGES.find(([, pattern]) => pattern.test(label(node)))?.[0];
    const up = parent.get(id);
    const stage = own ?? (up === undefined ? 'other' : find(up));
    stageOf.set(id, stage);
    return stage;
  };
  const { times: ms, unsampled } = sampleTimes(profile);
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stage = find(id);
    times.set(stage, (times.get(stage) ?? 0) + ms[i]!);
  });
  if (unsampled > 0) times.set('(not sampled)', unsampled);
  return times;
}

function table(title: string, times: Map<string, number>, total: number): void {
  console.log(`\n${title}`);
  for (const [k, ms] of [...times].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = (profile.endTime - profile.startTime) / 1000;
  const self = selfTimes(profile, (n) => n.callFrame.functionName);
  const idle = (self.get('(idle)') ?? 0) + (self.get('(not sampled)') ?? 0);
  console.log(`${file}: ${total.toFixed(0)} ms profiled, ${(total - idle).toFixed(0)} ms busy`);
  table('by stage (innermost named stage on the stack)', stageTimes(profile), total);
  table(
    'by source',
    selfTimes(profile, (n) => sourceOf(n.callFrame.url, n.callFrame.functionName)),
    total,
  );
  table(
    'by function',
    selfTimes(
      profile,
      (n) => `${n.callFrame.functionName || '(anonymous)'}  ${sourceOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`,
    ),
    total,
  );
}
