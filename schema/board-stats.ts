// The board's rates with the uncertainty a reader needs (issue 32): a proportion with its 95 % Wilson score
// interval, and pass@k. Defined once here; the worker's board, the web and the CLI read these.
import { z } from 'zod';

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** A proportion of `n` trials with its 95 % Wilson score interval; the interval is stated as such. */
export const rateSchema = z.object({
  successes: z.number().int().min(0),
  n: z.number().int().min(1),
  rate: z.number().min(0).max(1),
  low: z.number().min(0).max(1),
  high: z.number().min(0).max(1),
  interval: z.literal('wilson-95'),
});
export type Rate = z.infer<typeof rateSchema>;

/**
 * `successes` of `n` with its 95 % Wilson score interval (Wilson 1927): unlike the normal approximation it
 * stays within [0, 1] and is not empty at 0 or n successes, which small repeat counts make common. Null when
 * there were no trials.
 */
export function wilson95(successes: number, n: number): Rate | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  // At 0 or n successes the bound is exact in theory; rounding must not move it off 0 or 1.
  const low = successes === 0 ? 0 : clamp(centre - half);
  const high = successes === n ? 1 : clamp(centre + half);
  return { successes, n, rate: p, low, high, interval: 'wilson-95' };
}

/**
 * pass@k: the chance that at least one of k runs drawn from `n` (of which `c` succeeded) succeeds, by the
 * unbiased estimator 1 − C(n−c, k) / C(n, k) (Chen et al. 2021). Null when there are fewer than k runs.
 */
export function passAtK(n: number, c: number, k: number): number | null {
  if (k < 1 || n < k) return null;
  if (n - c < k) return 1;
  // The product form keeps the binomials from overflowing: C(n−c, k)/C(n, k) = Π (n−c−i)/(n−i), i < k.
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}

/** The k pass@k is given for, where a cell has at least k runs. */
export const PASS_AT = [1, 3, 5] as const;

export const passAtSchema = z.array(z.object({ k: z.number().int().min(1), value: z.number().min(0).max(1) }));
export type PassAt = z.infer<typeof passAtSchema>;

/** pass@k of a cell's runs for each k in PASS_AT its runs allow (none when it has fewer than one). */
export function passAtList(n: number, solved: number): PassAt {
  return PASS_AT.flatMap((k) => {
    const value = passAtK(n, solved, k);
    return value === null ? [] : [{ k, value }];
  });
}

/** "80 % (49–94 %)": a rate and its 95 % Wilson interval, as the board and the CLI show it (the header says which). */
export function rateText(r: Rate): string {
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  return `${pct(r.rate)} (${Math.round(r.low * 100)}–${pct(r.high)})`;
}
