// The models the proxy offers, asked of it each time: the list that GET /api/models shows and that
// POST /api/runs checks a new run's model against, so a run never starts on a model it cannot use.
import type { ModelInfo } from '../schema/protocol.ts';
import type { RunConfig } from '../schema/run.ts';
import { BASELINE_MODEL, REPLAY_MODEL } from '../schema/run.ts';
import { modelListSchema } from '../schema/protocol.ts';
import { readSettings } from './env.ts';
import { ApiError } from './errors.ts';

/** How long the proxy may take to list its models. */
const LIST_TIMEOUT_MS = 5_000;

/** The proxy's model list; a 503 ApiError when the proxy cannot be asked. */
export async function offeredModels(env: Env): Promise<ModelInfo[]> {
  const settings = readSettings(env);
  if (!settings.ok) throw new ApiError(503, 'misconfigured', settings.message);
  const { proxyUrl, proxySecret } = settings.settings;
  const response = await fetch(`${proxyUrl}/v1/models`, {
    headers: { authorization: `Bearer ${proxySecret}` },
    signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
  }).catch(() => null);
  const parsed = response?.ok ? modelListSchema.safeParse(await response.json().catch(() => null)) : null;
  if (!parsed?.success) {
    const answer = response ? `HTTP ${response.status}` : 'no answer';
    throw new ApiError(
      503,
      'proxy_unreachable',
      `the SSH proxy at ${proxyUrl} did not list its models (${answer}); is it running?`,
    );
  }
  return parsed.data.models;
}

/**
 * Refuses (400) a config whose model or knowledge model the proxy does not offer, or offers but cannot
 * run now, or has no price when the config's cost cap (caps.maxCostUsd) would bound it. A verification
 * run's "replay" model is the proxy's own and needs no question; the baseline costs nothing.
 */
export async function checkModel(env: Env, config: RunConfig, listed?: ModelInfo[]): Promise<ModelInfo | null> {
  const costCap = config.caps?.maxCostUsd !== undefined ? 'maxCostUsd' : undefined;
  // Every proxy runs the offline baseline; it needs no question, so a brief proxy outage cannot stop it.
  const asked = [...new Set([config.model, config.knowledgeModel])].filter(
    (id): id is string => id !== undefined && id !== BASELINE_MODEL && id !== REPLAY_MODEL,
  );
  if (asked.length === 0) return null;
  const models = listed ?? (await offeredModels(env));
  const usable = models.filter((m) => m.available).map((m) => m.id);
  for (const id of asked) {
    const field = id === config.model ? 'model' : 'knowledgeModel';
    const model = models.find((m) => m.id === id);
    if (!model) {
      throw new ApiError(
        400,
        'unknown_model',
        `${field} "${id}" is not offered; use one of: ${usable.join(', ')} (GET /api/models lists them)`,
      );
    }
    if (!model.available) {
      throw new ApiError(
        400,
        'model_unavailable',
        `${field} "${id}" cannot run now: ${model.reason ?? 'the proxy says it is unavailable'}; usable now: ${usable.join(', ')}`,
      );
    }
    if (costCap && !model.price) {
      const priced = models.filter((m) => m.available && m.price).map((m) => m.id);
      throw new ApiError(
        400,
        'unpriced_model',
        `${field} "${id}" has no price, so a cost cap (${costCap}) could not be enforced; set its price in PROVIDERS or drop ${costCap}${priced.length ? ` (priced now: ${priced.join(', ')})` : ''}`,
      );
    }
  }
  return models.find((m) => m.id === config.model) ?? null;
}
