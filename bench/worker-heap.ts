// The worker's JS heap through its DevTools inspector (workerd under wrangler, started with
// WORKER_INSPECTOR_PORT): a garbage collection and the heap used after it, then the most it used while
// sampled. What the worker itself holds, where the process's resident memory also counts what V8 keeps.
import { session } from './worker-profiler.ts';

type Target = { webSocketDebuggerUrl?: string; title?: string };
type HeapUsage = { usedSize: number; totalSize: number };

/** Every worker the inspector at `port` lists: the heap each uses after a GC, and a sampler of the sum's peak. */
export async function workerHeap(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Target[];
  const sessions = await Promise.all(
    targets.filter((t) => t.webSocketDebuggerUrl).map((t) => session(t.webSocketDebuggerUrl!, t.title ?? 'worker')),
  );
  for (const s of sessions) await s.call('HeapProfiler.enable');
  /** Asks each worker for a collection; workerd answers only the first (see afterGc), so none is waited for long. */
  const collect = () =>
    Promise.all(
      sessions.map((s) =>
        Promise.race([s.call('HeapProfiler.collectGarbage'), new Promise((resolve) => setTimeout(resolve, 100))]),
      ),
    );
  const used = async () => {
    const usages = await Promise.all(sessions.map((s) => s.call('Runtime.getHeapUsage') as Promise<HeapUsage>));
    return usages.reduce((n, u) => n + u.usedSize, 0) / 1024 / 1024;
  };
  return {
    /**
     * MiB used after a garbage collection was asked for. workerd answers the first request and then none (the
     * collection still runs at the isolate's next turn), so each is given a second before the heap is read.
     */
    async afterGc(): Promise<number> {
      await collect();
      await new Promise((resolve) => setTimeout(resolve, 900));
      return used();
    },
    /**
     * Samples the heap used every `everyMs` until stopped; returns its peak in MiB. `gc`: a collection is asked
     * for before each sample, so the peak is what was live rather than what the collector had not yet freed.
     */
    sample(everyMs = 50, gc = false): { stop: () => Promise<number> } {
      let peak = 0;
      let running = true;
      const loop = (async () => {
        while (running) {
          if (gc) await collect();
          peak = Math.max(peak, await used());
          await new Promise((resolve) => setTimeout(resolve, everyMs));
        }
      })();
      return {
        stop: async () => {
          running = false;
          await loop;
          return Math.max(peak, await used());
        },
      };
    },
    close: () => {
      for (const s of sessions) s.close();
    },
  };
}
