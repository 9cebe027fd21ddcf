// GET /api/health against real D1, a real Durable Object, and the real proxy and range on loopback.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { healthSchema } from '../../schema/api.ts';
import { app } from '../../worker/app.ts';
import { call } from './http.ts';

describe('GET /api/health', () => {
  it('reports every component ok when the stack is up', async () => {
    const response = await call('/api/health');
    const health = healthSchema.parse(await response.json());
    expect(Object.entries(health.components).filter(([, c]) => !c.ok)).toEqual([]);
    expect(health.ok).toBe(true);
    expect(response.status).toBe(200);
    expect(health.components.d1.reason).toMatch(/query ok/);
    expect(health.components.practice.reason).toMatch(/SSH-2\.0-/);
  });

  it('answers 503 and says why when the proxy is unreachable', async () => {
    const response = await app.request('/api/health', {}, { ...env, PROXY_URL: 'http://127.0.0.1:9' });
    const health = healthSchema.parse(await response.json());
    expect(response.status).toBe(503);
    expect(health.ok).toBe(false);
    expect(health.components.proxy).toMatchObject({ ok: false });
    expect(health.components.proxy.reason).toMatch(/unreachable.*PROXY_URL/);
    expect(health.components.practice.ok).toBe(false);
    expect(health.components.d1.ok).toBe(true);
  });

  it('names a bad setting instead of failing', async () => {
    const response = await app.request('/api/health', {}, { ...env, PROXY_URL: 'not a url', PROXY_SECRET: 'short' });
    const health = healthSchema.parse(await response.json());
    expect(health.components.worker.ok).toBe(false);
    expect(health.components.worker.reason).toMatch(/PROXY_URL/);
    expect(health.components.worker.reason).toMatch(/PROXY_SECRET/);
  });

  it('says which migrations to apply when the tables are missing', async () => {
    await env.DB.exec(
      'DROP TABLE IF EXISTS commands; DROP TABLE IF EXISTS executions; DROP TABLE IF EXISTS llm_calls; DROP TABLE IF EXISTS run_levels; DROP TABLE runs;',
    );
    const health = healthSchema.parse(await (await call('/api/health')).json());
    expect(health.components.d1).toMatchObject({ ok: false });
    expect(health.components.d1.reason).toMatch(/migrations apply/);
  });
});
