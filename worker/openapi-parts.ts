// The pieces the OpenAPI document (openapi.ts) is built from: zod schemas as named JSON Schema
// components, JSON bodies and error answers, query parameters, and the parameters many routes share.
import { z } from 'zod';

/** A piece of the document as JSON. */
export type Json = Record<string, unknown>;
type Io = 'input' | 'output';

/** Every named schema, filled as the paths are described. */
export const components: Record<string, Json> = {};

/** A named schema in components; nested $defs are lifted beside it so every $ref resolves. */
export function component(name: string, schema: z.ZodType, io: Io = 'output'): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  delete json.$schema;
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (value === null || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string')
        out[key] =
          inner === '#' ? `#/components/schemas/${name}` : inner.replace('#/$defs/', `#/components/schemas/${name}_`);
      else out[key] = rename(inner);
    }
    return out;
  };
  for (const [def, body] of Object.entries(defs)) components[`${name}_${def}`] = rename(body) as Json;
  components[name] = rename(json) as Json;
  return { $ref: `#/components/schemas/${name}` };
}

/** A JSON body with its description. */
export const json = (schema: Json, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
/** An error answer ({ error: { code, message } }) with its description. */
export const error = (description: string) => json({ $ref: '#/components/schemas/ApiError' }, description);

/** Query parameters from an object schema's properties. */
export function query(schema: z.ZodObject): Json[] {
  const body = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(body.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: body.required?.includes(name) ?? false,
    schema: property,
  }));
}

/** The path parameters and the answers every route may give. */
export const runId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^run_[0-9a-z]{20,40}$' },
};
export const batchId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^batch_[0-9a-z]{20,40}$' },
};
export const callId = { name: 'callId', in: 'path', required: true, schema: { type: 'string' } };
export const common = {
  '401': error('No valid token: none while API_TOKEN is set, or unknown, expired or revoked'),
  '403': error("The token's role may not do this, or (no API_TOKEN set) not this machine's own client"),
};

/** Past a client's allowance of run creations (RUN_CREATE_PER_MINUTE, RUN_CREATE_BURST); Retry-After says when. */
export const tooManyRuns = {
  '429': {
    ...error('Too many runs created by this client; try again after Retry-After seconds'),
    headers: {
      'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the allowance covers the request' },
    },
  },
};
