// The proxy's health and the range it checks, over real TCP: SSH login, exec with exit codes, refusals.
import { Agent, get } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyHealthSchema } from '../../schema/protocol.ts';
import { createProxyApp } from '../../ssh-proxy/server.ts';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';
import { sshExec } from '../support/ssh-client.ts';

let services: LoopbackServices;
beforeAll(async () => {
  services = await startLoopbackServices();
});
afterAll(() => services.close());

const login = (password: string) => ({ port: services.range.port, username: 'bandit0', password });

describe('practice range behind the proxy', () => {
  it('lets bandit0 in with password bandit0 and runs a command in the simulated shell', async () => {
    const result = await sshExec(login('bandit0'), 'cat readme; exit 7');
    expect(result.stdout).toMatch(/practice range/);
    expect(result.code).toBe(7);
  });

  it('refuses a wrong password the SSH way', async () => {
    await expect(sshExec(login('wrong'), 'true')).rejects.toThrow(/authentication methods failed/);
  });
});

describe('ssh-proxy /health', () => {
  it('reports itself and the range as ok', async () => {
    const response = await fetch(`${services.proxyUrl}/health`);
    const health = proxyHealthSchema.parse(await response.json());
    expect(health.ok).toBe(true);
    expect(health.practice.ok).toBe(true);
    expect(health.practice.reason).toMatch(/^SSH-2\.0-/);
  });

  it('says the range is down when nothing listens on its port', async () => {
    const { app, pool } = createProxyApp(readProxySettings({ PROXY_SECRET: 'x'.repeat(16), PRACTICE_PORT: '9' }));
    const health = proxyHealthSchema.parse(await (await app.request('/health')).json());
    pool.closeAll();
    expect(health.practice).toMatchObject({ ok: false, reason: expect.stringMatching(/refused/) });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${services.proxyUrl}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('connections from the worker', () => {
  it('stay open past 7 s idle, so a call is not sent on a socket the proxy is closing', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const health = () =>
      new Promise<{ reused: boolean }>((resolve, reject) => {
        const request = get(`${services.proxyUrl}/health`, { agent }, (response: IncomingMessage) => {
          response.resume();
          response.on('end', () => resolve({ reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    expect((await health()).reused).toBe(false);
    // Node's default keep-alive is 5 s (and a second's grace): past it the proxy used to close the socket, racing a new call.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    expect((await health()).reused).toBe(true);
    agent.destroy();
  }, 15_000);
});
