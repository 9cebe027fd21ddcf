// Entry point: `npm run proxy` or `node ssh-proxy/main.ts`. Settings come from the environment.
import { readProxySettings } from './settings.ts';
import { startProxy } from './server.ts';

try {
  const settings = readProxySettings(process.env);
  const proxy = await startProxy(settings);
  console.log(
    `ssh-proxy listening on http://${settings.host}:${proxy.port} (practice range at ${settings.practice.host}:${settings.practice.port})`,
  );
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
  console.error(
    inUse
      ? `port ${process.env.PROXY_PORT ?? 8788} is in use; set PROXY_PORT to a free port`
      : err instanceof Error
        ? err.message
        : err,
  );
  process.exit(1);
}
