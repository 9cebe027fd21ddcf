// PROXIES=N for `npm start`: N SSH proxies behind HAProxy from Debian's package, which listens where the one
// proxy would (PROXY_PORT), so the worker's PROXY_URL does not change. The configuration is written here,
// at each start, into STATE_DIR. Why HAProxy: active health checks (nginx's open-source build has only
// passive ones), and hashing on a header, so a run's calls go to one proxy while it is up (its SSH session
// stays warm) and move to another the moment it is not. Nothing a later call needs lives in one proxy.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { RUN_ID_HEADER } from '../schema/proxy-routing.ts';

/** Where Debian puts it (root's PATH has /usr/sbin, a user's may not). */
const HAPROXY_PLACES = ['/usr/sbin/haproxy', '/usr/bin/haproxy'];

/** The haproxy binary: HAPROXY, then PATH, then Debian's place; an Error saying how to get it. */
export function findHaproxy(env: NodeJS.ProcessEnv, places: readonly string[] = HAPROXY_PLACES): string {
  if (env.HAPROXY) {
    if (existsSync(env.HAPROXY)) return env.HAPROXY;
    throw new Error(`HAPROXY=${env.HAPROXY} does not exist; point it at the haproxy binary or unset it`);
  }
  const onPath = (env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'haproxy'));
  const found = [...onPath, ...places].find((path) => existsSync(path));
  if (found) return found;
  throw new Error(
    'PROXIES above 1 runs the proxies behind HAProxy, which is not installed: `sudo apt-get install haproxy` (Debian/Ubuntu), or set HAPROXY to its path, or run with PROXIES=1',
  );
}

/** `count` ports free on loopback now, for the proxies behind the balancer (only the balancer talks to them). */
export async function freeLoopbackPorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  return ports;
}

/** How the balancer checks and drops a proxy. */
export const HEALTH = {
  /** GET this on each proxy… */
  path: '/ready',
  /** …this often (ms), */
  everyMs: 500,
  /**
   * …and a proxy that fails this many checks in a row is taken out (one: a killed proxy is back within about a
   * second, so waiting for a second failure would often miss it); one that passes `rise` in a row is back.
   */
  fall: 1,
  rise: 2,
} as const;

/** The HAProxy configuration for proxies on `backends`, listening on 127.0.0.1:`listenPort`. */
export function haproxyConfig(listenPort: number, backends: readonly number[]): string {
  const servers = backends.map((port, i) => `    server proxy-${i + 1} 127.0.0.1:${port}`);
  return `# Written by npm start (scripts/balancer.ts) for PROXIES=${backends.length}; rewritten at each start.
global
    maxconn 4096
    # No stats socket and no admin listener: the one port below is all it opens.

defaults
    mode http
    timeout connect 1s
    # A call streams for up to PROXY_CALL_MAX_MS; a terminal relay may stay open for long.
    timeout client 10m
    timeout server 10m
    timeout tunnel 1h
    timeout http-keep-alive 2m
    # Only a connection that failed is tried on another proxy: the request never reached the first.
    # A call cut after it started is retried by the run's Durable Object, from its last checkpoint.
    retries 3
    option redispatch 1

frontend proxies_in
    bind 127.0.0.1:${listenPort}
    default_backend proxies

backend proxies
    # A run's calls and breaks carry its id: they go to one proxy while it is up, and move when it is not.
    balance hdr(${RUN_ID_HEADER})
    hash-type consistent
    option httpchk
    http-check send meth GET uri ${HEALTH.path}
    http-check expect status 200
    # Taken out after ${HEALTH.fall} failed checks ${HEALTH.everyMs} ms apart, or at once when live traffic cannot connect.
    default-server check inter ${HEALTH.everyMs}ms fall ${HEALTH.fall} rise ${HEALTH.rise} observe layer4 error-limit 1 on-error mark-down
${servers.join('\n')}
`;
}
