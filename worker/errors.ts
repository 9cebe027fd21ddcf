// The worker's one error funnel: every failure becomes `{ error: { code, message, issues? } }`
// with the right status, and nothing else (no stack traces) reaches a client.
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody } from '../schema/api.ts';

// The body's one owner is schema/api.ts; passed on for the object's files, which import it from here.
export { errorBody };

/** A failure a client can act on; thrown from handlers and answered by `onError`. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly issues: string[] | undefined;

  constructor(status: ContentfulStatusCode, code: string, message: string, issues?: string[]) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.issues), err.status);
  if (err instanceof HTTPException)
    return c.json(errorBody(codeFor(err.status), err.message || 'request refused'), err.status);
  // A bug: log it for the operator, tell the client only that it happened.
  console.error('unhandled error', err);
  return c.json(
    errorBody('internal', 'the server failed while handling this request; it has been logged, try again'),
    500,
  );
};

/**
 * Unknown routes. Pages outside /api are static assets: a browser asking for a missing page gets
 * the web app's 404 page, anything else gets JSON, and a write to a page gets 405.
 */
export const onNotFound: NotFoundHandler<{ Bindings: Env }> = async (c) => {
  const path = new URL(c.req.url).pathname;
  const isApi = path === '/api' || path.startsWith('/api/');
  if (!isApi && c.req.method !== 'GET' && c.req.method !== 'HEAD') return methodNotAllowed(['GET', 'HEAD'])(c);
  if (!isApi && c.req.header('Accept')?.includes('text/html')) {
    const page = await c.env.ASSETS.fetch(new URL('/404.html', c.req.url));
    if (page.ok) return new Response(page.body, { status: 404, headers: page.headers });
  }
  return c.json(errorBody('not_found', `no route for ${c.req.method} ${path}; see docs/protocol.md for the API`), 404);
};

/** A catch-all for a known path hit with a method it does not take. */
export function methodNotAllowed(allowed: string[]) {
  return (c: Context) => {
    c.header('Allow', allowed.join(', '));
    return c.json(
      errorBody('method_not_allowed', `${c.req.method} is not allowed here; use ${allowed.join(' or ')}`),
      405,
    );
  };
}

function codeFor(status: number): string {
  if (status === 400) return 'invalid_input';
  if (status === 401) return 'unauthorized';
  if (status === 413) return 'body_too_large';
  return 'http_error';
}
