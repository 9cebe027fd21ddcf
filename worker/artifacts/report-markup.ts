// The report's escaping, in one place: every run text (a model's thinking, a command, an output, a run
// id) becomes HTML text here, and JSON for an inline script cannot close its tag or start a comment.
import { plainText, safeJson } from '../../schema/terminal-text.ts';

/** What report.html may load: nothing from anywhere; its own inline style and script, and data: images. */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; " +
  "base-uri 'none'; form-action 'none'";

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Run text as HTML text (or an attribute value): escapes and controls made visible first, then the markup escaped. */
export const esc = (text: string): string => plainText(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);

/** Characters of one output shown in the report; events.jsonl in the archive has every one whole. */
export const REPORT_OUTPUT_CHARS = 4_000;

/** Text cut to `max` characters, with a note of how many were left out. */
export const cut = (text: string, max = REPORT_OUTPUT_CHARS): string =>
  text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters in events.jsonl)` : text;

/**
 * JSON for `<script type="application/json">`: safeJson (C1, bidi and U+2028/2029 as `\uXXXX`), then
 * `<`, `>` and `&` as `\uXXXX`, so no `</script>` or `<!--` can appear; JSON.parse gives back the same data.
 */
export const scriptJson = (value: unknown): string =>
  safeJson(value).replace(/[<>&]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Milliseconds as a person reads them: 850 ms, 12.3 s, 4 min 05 s, 1 h 02 min. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const s = Math.round(ms / 1_000);
  if (s < 3_600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3_600)} h ${String(Math.floor((s % 3_600) / 60)).padStart(2, '0')} min`;
}

/** A cost in dollars, four decimals; null (no price known) as a dash. */
export const dollars = (usd: number | null): string => (usd === null ? '—' : `$${usd.toFixed(4)}`);
