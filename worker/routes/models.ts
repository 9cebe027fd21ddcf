// GET /api/models: the models a run can use, as the proxy reports them (baseline plus configured).
import { Hono } from 'hono';
import { modelListSchema } from '../../schema/protocol.ts';
import { readSettings } from '../env.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';

export const modelRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => {
    const settings = readSettings(c.env);
    if (!settings.ok) throw new ApiError(503, 'misconfigured', settings.message);
    const { proxyUrl, proxySecret } = settings.settings;
    const response = await fetch(`${proxyUrl}/v1/models`, { headers: { authorization: `Bearer ${proxySecret}` } }).catch(() => null);
    const parsed = response?.ok ? modelListSchema.safeParse(await response.json().catch(() => null)) : null;
    if (!parsed?.success) {
      throw new ApiError(503, 'proxy_unreachable', `the SSH proxy at ${proxyUrl} did not list its models (${response ? `HTTP ${response.status}` : 'no answer'}); is it running?`);
    }
    return c.json(parsed.data);
  })
  .all('/', methodNotAllowed(['GET']));
