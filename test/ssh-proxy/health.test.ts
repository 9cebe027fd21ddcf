// The proxy's health and the minimal range, over real TCP: SSH login, exec with exit codes, refusals.
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyHealthSchema } from '../../schema/protocol.ts';
import { createProxyApp } from '../../ssh-proxy/server.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let services: LoopbackServices;
beforeAll(async () => {
  services = await startLoopbackServices();
});
afterAll(() => services.close());

function sshExec(password: string, command: string): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on('ready', () => {
        client.exec(command, (err, stream) => {
          if (err) return reject(err);
          let stdout = '';
          let code: number | null = null;
          stream.on('data', (d: Buffer) => (stdout += d.toString()));
          stream.on('exit', (exitCode: number | null) => (code = exitCode));
          // 'exit' can arrive before the last data; 'close' comes after both.
          stream.on('close', () => {
            client.end();
            resolve({ stdout, code });
          });
        });
      })
      .on('error', reject)
      .connect({ host: '127.0.0.1', port: services.range.port, username: 'bandit0', password, readyTimeout: 5_000 });
  });
}

describe('practice range (minimal)', () => {
  it('lets bandit0 in with password bandit0 and runs a command in the simulated shell', async () => {
    const result = await sshExec('bandit0', 'cat readme; exit 7');
    expect(result.stdout).toMatch(/practice range/);
    expect(result.code).toBe(7);
  });

  it('refuses a wrong password the SSH way', async () => {
    await expect(sshExec('wrong', 'true')).rejects.toThrow(/authentication methods failed/);
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
    const app = createProxyApp({ host: '127.0.0.1', port: 0, secret: 'x'.repeat(16), practice: { host: '127.0.0.1', port: 9 } });
    const health = proxyHealthSchema.parse(await (await app.request('/health')).json());
    expect(health.practice).toMatchObject({ ok: false, reason: expect.stringMatching(/refused/) });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${services.proxyUrl}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
