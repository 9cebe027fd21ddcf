// bench/stack-api: the stack's REST API as the benchmarks call it: JSON in and out, and a failed request an
// error that names its path, status and answer.

/** GET `path` (or POST `body` as JSON to it) on the stack at `baseUrl`, and its JSON answer. */
export type StackApi = <T>(path: string, body?: unknown) => Promise<T>;

export function stackApi(baseUrl: string): StackApi {
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(
      `${baseUrl}${path}`,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}
