// Takes a CPU profile of the worker (workerd under wrangler, started with WORKER_INSPECTOR_PORT) through its DevTools inspector, the
// way Chrome DevTools does: Profiler.start, then Profiler.stop returns a .cpuprofile.
import { writeFileSync } from 'node:fs';

type Target = { webSocketDebuggerUrl?: string; title?: string };

/** Connects to the inspector at `port` and starts profiling every worker it lists; `stop` writes the profiles. */
export async function profileWorker(port: number): Promise<{ stop: (prefix: string) => Promise<string[]> }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Target[];
  const sessions = await Promise.all(
    targets.filter((t) => t.webSocketDebuggerUrl).map((t) => session(t.webSocketDebuggerUrl!, t.title ?? 'worker')),
  );
  for (const s of sessions) {
    await s.call('Profiler.enable');
    await s.call('Profiler.setSamplingInterval', { interval: 200 });
    await s.call('Profiler.start');
  }
  return {
    stop: async (prefix) => {
      const files: string[] = [];
      for (const [i, s] of sessions.entries()) {
        const { profile } = (await s.call('Profiler.stop')) as { profile: unknown };
        const file = `${prefix}.worker-${i}-${s.title.replace(/[^\w-]+/g, '_')}.cpuprofile`;
        writeFileSync(file, JSON.stringify(profile));
        files.push(file);
        s.close();
      }
      return files;
    },
  };
}

/** A DevTools protocol session with one worker of the inspector: call a method, get its result. */
export async function session(url: string, title: string) {
  // The inspector proxy takes only a loopback or DevTools Origin (undici's WebSocket accepts headers).
  const ws = new WebSocket(url, { headers: { origin: 'http://127.0.0.1' } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (m) => {
    const message = JSON.parse(String(m.data)) as { id?: number; result?: unknown; error?: unknown };
    // workerd answers a call with its id (and echoes the method); wrangler's own calls have ids of its range.
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? message.error);
  });
  return {
    title,
    call: (method: string, params: unknown = {}) =>
      new Promise<unknown>((resolve) => {
        waiting.set(++id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}
