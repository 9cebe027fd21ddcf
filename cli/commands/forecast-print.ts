// `run --dry-run`'s forecast: asks POST /api/forecast for what the planned run or batch is likely to
// cost and take. A dry run starts nothing either way, so a forecast the stack cannot give is said, not fatal.
import type { ForecastRequestInput } from '../../schema/forecast-request.ts';
import type { Forecast } from '../../schema/forecast.ts';
import { forecastSchema } from '../../schema/forecast.ts';
import type { ApiClient } from '../api-client.ts';
import type { RunPlan } from '../run-plan.ts';

/** The forecast request for a plan: one run is a batch of one model, once. */
export function forecastRequestOf(plan: RunPlan): ForecastRequestInput {
  if (plan.kind === 'run') {
    const { model, target, startLevel, endLevel } = plan.config;
    return { models: [model], target, startLevel, endLevel, repeats: 1 };
  }
  const { models, target, startLevel, endLevel, repeats } = plan.batch;
  return { models, target, startLevel, endLevel, repeats };
}

/** The plan's forecast, or why there is none (the stack unreachable or refusing). */
export async function forecastOf(
  client: ApiClient,
  plan: RunPlan,
): Promise<{ forecast: Forecast; error: null } | { forecast: null; error: string }> {
  try {
    return { forecast: await client.post('/api/forecast', forecastRequestOf(plan), forecastSchema), error: null };
  } catch (err) {
    return { forecast: null, error: err instanceof Error ? err.message : String(err) };
  }
}
