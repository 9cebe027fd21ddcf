// Puts scripts/worker-front.ts where wrangler's relay worker would be: the DevEnv's proxy controller
// is kept (DevEnv needs one) but its hooks drive the front, so no relay workerd ever starts.
import type { unstable_DevEnv } from 'wrangler';
import type { WorkerFront } from './worker-front.ts';

type ReloadComplete = Parameters<unstable_DevEnv['proxy']['onReloadComplete']>[0];

/** Routes `devEnv`'s worker through `front`, listening on `hostname:port` once the worker first runs. */
export function useWorkerFront(devEnv: unstable_DevEnv, front: WorkerFront, hostname: string, port: number): void {
  const proxy = devEnv.proxy;
  let _listening: Promise<void> | null = null;
  proxy.onConfigUpdate = () => {};
  proxy.onBundleStart = () => front.pause();
  proxy.onReloadStart = () => front.pause();
  proxy.onReloadComplete = (event: ReloadComplete) => {
    const { userWorkerUrl, headers } = event.proxyData;
    front.play({ hostname: userWorkerUrl.hostname, port: Number(userWorkerUrl.port), headers });
    proxy.localServerReady.resolve();
    _listening ??= front.listen(hostname, port).then(
      // `proxyWorker` is wrangler's relay, used only by Worker.fetch(), which npm start never calls.
      (url) => proxy.ready.resolve({ type: 'ready', proxyWorker: undefined as never, url, inspectorUrl: undefined }),
      (err: unknown) => proxy.ready.reject(err instanceof Error ? err : new Error(String(err))),
    );
  };
  const teardown = proxy.teardown.bind(proxy);
  proxy.teardown = async () => {
    await front.close();
    await teardown();
  };
}
