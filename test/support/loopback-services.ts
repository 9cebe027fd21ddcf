// Starts the real practice range and SSH proxy on free loopback ports, for tests.
import { randomBytes } from 'node:crypto';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { startProxy } from '../../ssh-proxy/server.ts';
import type { RunningProxy } from '../../ssh-proxy/server.ts';
import { readProxySettings } from '../../ssh-proxy/settings.ts';

/** A range and a proxy pointed at it. */
export type LoopbackServices = {
  range: RunningRange;
  proxy: RunningProxy;
  proxyUrl: string;
  proxySecret: string;
  close: () => Promise<void>;
};

/** `proxyEnv` adds proxy environment variables (e.g. OPENAI_BASE_URL, PROXY_SLICE_MS). */
export async function startLoopbackServices(
  proxyEnv: Record<string, string> = {},
  rangeOptions: Pick<Parameters<typeof startRange>[0], 'commandLog'> = {},
): Promise<LoopbackServices> {
  const range = await startRange({
    host: '127.0.0.1',
    port: 0,
    hostKey: loadHostKey(null),
    seed: 'test-seed',
    ...rangeOptions,
  });
  const proxySecret = randomBytes(24).toString('base64url');
  const proxy = await startProxy(
    readProxySettings({ PROXY_SECRET: proxySecret, PROXY_PORT: '0', PRACTICE_PORT: String(range.port), ...proxyEnv }),
  );
  return {
    range,
    proxy,
    proxyUrl: `http://127.0.0.1:${proxy.port}`,
    proxySecret,
    close: async () => {
      await proxy.close();
      await range.close();
    },
  };
}
