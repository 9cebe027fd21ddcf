'use client';
// Shows whether every part of the stack answers, refreshed every few seconds.
import { useEffect, useState } from 'react';
import type { Health } from '../../schema/api.ts';
import { HEALTH_COMPONENTS } from '../../schema/api.ts';
import { fetchHealth } from '../lib/api.ts';

const LABELS: Record<(typeof HEALTH_COMPONENTS)[number], string> = {
  worker: 'Worker',
  d1: 'D1 database',
  durable_object: 'Durable Objects',
  proxy: 'SSH proxy',
  practice: 'Practice range',
};

export function HealthPanel() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      fetchHealth(controller.signal)
        .then((h) => {
          setHealth(h);
          setError(null);
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setError(err instanceof Error ? err.message : String(err));
        });
    void load();
    const timer = setInterval(load, 5_000);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, []);

  return (
    <section aria-labelledby="health-title" className="panel">
      <h2 id="health-title">
        System health{' '}
        {health && <span className={health.ok ? 'badge ok' : 'badge down'}>{health.ok ? 'all ok' : 'degraded'}</span>}
      </h2>
      {error && <p role="alert">Could not reach the worker: {error}</p>}
      {!health && !error && <p aria-live="polite">Checking…</p>}
      {health && (
        <ul className="health-list" aria-live="polite">
          {HEALTH_COMPONENTS.map((name) => {
            const component = health.components[name];
            return (
              <li key={name} data-component={name} data-ok={component.ok}>
                <span className={component.ok ? 'dot ok' : 'dot down'} aria-hidden="true" />
                <strong>{LABELS[name]}</strong> <span className="sr-only">{component.ok ? 'ok' : 'down'}:</span>
                <span className="reason">{component.reason}</span>
                {component.warning && (
                  <span className="reason warning" role="note">
                    Warning: {component.warning}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
