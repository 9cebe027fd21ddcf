// The CLI's only way to the stack: REST and WebSocket at --url, with the bearer token when given.
// Answers are validated with the shared protocol schemas; every failure becomes a one-line CliError
// whose exit code says whether the stack was unreachable or refused.
import type { z } from 'zod';
import { CLIENT_HEADER } from '../schema/answered-by.ts';
import type { ClientKind } from '../schema/answered-by.ts';
import { apiErrorOf } from '../schema/api.ts';
import { socketProtocols } from '../schema/protocol.ts';
import { CliError, EXIT } from './exit-codes.ts';

export type Connection = { url: string; token: string | null };

export class ApiClient {
  readonly url: string;
  private readonly token: string | null;

  constructor(connection: Connection) {
    this.url = connection.url.replace(/\/+$/, '');
    this.token = connection.token;
  }

  get<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return this.request(path, schema, { method: 'GET' });
  }

  post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return this.request(path, schema, { method: 'POST', body: JSON.stringify(body) });
  }

  delete<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return this.request(path, schema, { method: 'DELETE' });
  }

  /**
   * A body that is not JSON (the artifacts zip), as bytes. The server's Content-Disposition file name
   * is not read: the caller names the file itself (cli/save-inside.ts), so no server picks the path.
   */
  async download(path: string): Promise<Uint8Array> {
    const response = await this.fetch(path, { method: 'GET' });
    if (!response.ok) throw await this.refusal(path, response);
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * A WebSocket to a run, with the token offered as a subprotocol as the web UI does; `client=cli`
   * names the CLI as who acted (the terminal's holder) in the log.
   */
  socket(runId: string, since: number): WebSocket {
    const path = `/api/runs/${encodeURIComponent(runId)}/ws?client=${'cli' satisfies ClientKind}&since=${since}`;
    const url = `${this.url.replace(/^http/, 'ws')}${path}`;
    return new WebSocket(url, socketProtocols(this.token));
  }

  private async request<T>(path: string, schema: z.ZodType<T>, init: RequestInit): Promise<T> {
    const response = await this.fetch(path, init);
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw this.refusalFrom(path, response.status, body);
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new CliError(
        `the stack's answer to ${path} was not understood; is --url a bandit-runner worker of this version?`,
        EXIT.failed,
      );
    return parsed.data;
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    };
    // An answer to a pause is recorded as given by "the CLI" (schema/answered-by.ts).
    headers[CLIENT_HEADER] = 'cli' satisfies ClientKind;
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    try {
      return await fetch(`${this.url}${path}`, { ...init, headers, signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      const why = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new CliError(
        `the stack at ${this.url} did not answer (${why}); start it with \`npm start\` or pass --url`,
        EXIT.unreachable,
      );
    }
  }

  private async refusal(path: string, response: Response): Promise<CliError> {
    return this.refusalFrom(path, response.status, await response.json().catch(() => null));
  }

  private refusalFrom(path: string, status: number, body: unknown): CliError {
    const error = apiErrorOf(body);
    const message = error ? [error.message, ...(error.issues ?? [])].join(' — ') : `HTTP ${status}`;
    if (status === 401 || status === 403)
      return new CliError(`${message} (pass --token or set BANDIT_RUNNER_TOKEN)`, EXIT.failed);
    if (status === 400) return new CliError(message, EXIT.usage);
    return new CliError(`${path}: ${message}`, status === 503 ? EXIT.unreachable : EXIT.failed);
  }
}
