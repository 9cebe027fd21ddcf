// GET /api/openapi.json: the API described from its own schemas (worker/openapi.ts).
import { Hono } from 'hono';
import { methodNotAllowed } from '../errors.ts';
import { openApiDocument } from '../openapi.ts';

export const openApiRoutes = new Hono<{ Bindings: Env }>()
  .get('/', (c) => c.json(openApiDocument()))
  .all('/', methodNotAllowed(['GET']));
