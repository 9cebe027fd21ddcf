// Options every command shares, each also an environment variable: where the stack is, its token,
// and colour. Numbers are parsed here so a bad value is a one-line usage error naming the flag.
import { InvalidArgumentError } from 'commander';
import { ApiClient } from './api-client.ts';
import { colorsFor } from './render/colors.ts';
import type { Colors } from './render/colors.ts';

export type GlobalOptions = { url: string; token?: string; color: boolean };

export const DEFAULT_URL = 'http://127.0.0.1:8787';

export function clientFrom(g: GlobalOptions): ApiClient {
  return new ApiClient({ url: g.url, token: g.token ?? null });
}

export function colorsOf(g: GlobalOptions, stream: NodeJS.WriteStream): Colors {
  return colorsFor(stream, { color: g.color });
}

/** A whole number ≥ 1 for `flag`, or commander's usage error naming it. */
export function intOption(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new InvalidArgumentError(`${flag} must be a whole number of 1 or more`);
    return Number(value);
  };
}
