// PROXIES=N's balancer: the configuration npm start writes is read by the real HAProxy (`haproxy -c`),
// and what it promises (hashing on the run's header, the checks, the retries) is in it. The settings
// refuse what cannot be served, and a missing HAProxy is named with the way to get it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_ID_HEADER } from '../../schema/proxy-routing.ts';
import { findHaproxy, freeLoopbackPorts, HEALTH, haproxyConfig } from '../../scripts/balancer.ts';
import { readStackSettings } from '../../scripts/stack-settings.ts';

describe('the balancer for PROXIES=N', () => {
  it('writes a configuration HAProxy accepts, hashing on the run and checking each proxy', async () => {
    const ports = await freeLoopbackPorts(3);
    expect(new Set(ports).size).toBe(3);
    const config = haproxyConfig(18_788, ports);
    const dir = mkdtempSync(join(tmpdir(), 'balancer-'));
    try {
      const file = join(dir, 'haproxy.cfg');
      writeFileSync(file, config);
      const checked = execFileSync(findHaproxy(process.env), ['-c', '-f', file], { encoding: 'utf8' });
      expect(checked).toContain('Configuration file is valid');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(config).toContain(`bind 127.0.0.1:18788`);
    expect(config).toContain(`balance hdr(${RUN_ID_HEADER})`);
    expect(config).toContain(`http-check send meth GET uri ${HEALTH.path}`);
    for (const [i, port] of ports.entries()) expect(config).toContain(`server proxy-${i + 1} 127.0.0.1:${port}`);
    // No stats page or admin socket: the one bind above is all it listens on.
    expect(config.match(/^\s*bind /gm)).toHaveLength(1);
    expect(config).not.toMatch(/^\s*stats\s/m);
  });

  it('names HAProxy and how to get it when it is missing', () => {
    expect(() => findHaproxy({ HAPROXY: '/nonexistent/haproxy' })).toThrow(
      /HAPROXY=\/nonexistent\/haproxy does not exist/,
    );
    expect(() => findHaproxy({ PATH: '/nonexistent' }, [])).toThrow(/not installed: `sudo apt-get install haproxy`/);
  });

  it('takes PROXIES from 1 to 16, and says what is wrong otherwise', () => {
    expect(readStackSettings({}, '/x').proxies).toBe(1);
    expect(readStackSettings({ PROXIES: '3' }, '/x').proxies).toBe(3);
    expect(() => readStackSettings({ PROXIES: '0' }, '/x')).toThrow(/PROXIES: must be at least 1/);
    expect(() => readStackSettings({ PROXIES: '2.5' }, '/x')).toThrow(/PROXIES: must be a whole number/);
    expect(() => readStackSettings({ PROXIES: '64' }, '/x')).toThrow(/PROXIES: must be at most 16/);
  });
});
