// Reads and validates request input with the shared zod schemas, so handlers only see typed data.
// Bodies and query strings go through the same funnel and fail with the same 400 error body.
import type { Context } from 'hono';
import type { z } from 'zod';
import { issueList } from '../schema/issues.ts';
import { ApiError } from './errors.ts';

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The JSON body, parsed and validated; 400 for bad JSON or bad fields, 413 when too large. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await c.req.text();
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) throw tooLarge();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ApiError(
        400,
        'invalid_json',
        'the request body is not valid JSON; send a JSON object with Content-Type: application/json',
      );
    }
  }
  return parseOr400(schema, raw, 'the request body');
}

/** The query string, validated; 400 `invalid_query` naming each bad parameter. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseOr400(schema, c.req.query(), 'the query', 'invalid_query');
}

/** A value validated against a schema, or a 400 naming every problem (`code` says which input it was). */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  what: string,
  code: 'invalid_input' | 'invalid_query' = 'invalid_input',
): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = issueList(parsed.error);
  throw new ApiError(400, code, `${what} is invalid: ${issues.join('; ')}`, issues);
}

function tooLarge(): ApiError {
  return new ApiError(413, 'body_too_large', `the request body is larger than ${MAX_BODY_BYTES} bytes; send less`);
}
