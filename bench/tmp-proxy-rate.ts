import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { advanceBody, postAdvance, parseReply } from '../test/support/advance-client.ts';
import { startFakeOpenAi, textReply, toolCall } from '../test/support/fake-openai.ts';
import { freePort } from '../test/support/free-port.ts';
const SECRET = 'bench-secret-0123456789';
function start(script: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, script), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout?.on('data', (d: Buffer) => d.toString().includes('listening') && resolve(child)));
}
let n = 0;
const fake = await startFakeOpenAi();
fake.respond((request) => (request.tools ? toolCall('run_command', { command: `echo bench ${++n}` }) : textReply('- Try another command.')));
const rangePort = await freePort(); const proxyPort = await freePort();
const range = await start('../practice/main.ts', ['--port', String(rangePort), '--seed', 'bench', '--quiet'], {});
const proxy = await start('../ssh-proxy/main.ts', [], { PROXY_PORT: String(proxyPort), PROXY_SECRET: SECRET, PRACTICE_PORT: String(rangePort), PROXY_SLICE_MS: '60000', OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk', OPENAI_MODELS: 'fill' });
const to = { proxyUrl: `http://127.0.0.1:${proxyPort}`, proxySecret: SECRET };
for (const model of [process.argv[2] ?? 'fill', process.argv[2] ?? 'fill']) {
  const t = performance.now();
  const body = advanceBody(`run_x${String(Math.random()).slice(2, 22).padEnd(20, '0')}`, { model, maxRetries: 10, budget: 100 });
  (body as any).checkpointPatches = true;
  const r = parseReply(await (await postAdvance(to, body)).text());
  const dt = performance.now() - t;
  const cmds = r.events.filter((e) => e.type === 'command');
  console.log(model, r.events.length, 'events', (dt).toFixed(0), 'ms', (r.events.length / (dt / 1000)).toFixed(0), 'ev/s', cmds.length, 'cmds', r.end);
  const outs = r.events.filter((e) => e.type === 'output') as any[]; const d = outs.map((o) => o.durationMs).sort((a, b) => a - b);
  console.log('exec p50', d[d.length >> 1]);
}
proxy.kill(); range.kill(); await fake.close();
