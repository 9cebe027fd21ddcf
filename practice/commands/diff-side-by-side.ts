// diff -y, laid out column for column as GNU diff 3.8 lays it out: two halves of a 130-column line
// (-W), tabs rather than spaces up to the gutter, "|" for a changed pair, "<" and ">" for a line on
// one side only, and --suppress-common-lines. Ported from GNU's side.c (print_1sdiff_line,
// tab_from_to, print_half_line); lines are bytes, one character each.

import { change } from './diff-command.ts';
import type { Edit } from './diff-command.ts';

export type SideBySideOptions = { width: number; suppressCommon: boolean; leftColumn: boolean; expandTabs: boolean };

const TAB = 8;
const GUTTER = 3;

export function sideBySide(edits: Edit[], options: SideBySideOptions): string {
  const t = options.expandTabs ? 1 : TAB;
  const offset = Math.floor((options.width + t + GUTTER) / (2 * t)) * t;
  const half = Math.max(0, Math.min(offset - GUTTER, options.width - offset));
  const column2 = half ? offset : options.width;
  const out: string[] = [];

  const tabFromTo = (from: number, to: number): number => {
    if (!options.expandTabs) {
      for (let tab = from + TAB - (from % TAB); tab <= to; tab += TAB) {
        out.push('\t');
        from = tab;
      }
    }
    while (from++ < to) out.push(' ');
    return to;
  };
  // Writes up to `bound` columns of a line and returns the column reached.
  const halfLine = (line: string, bound: number): number => {
    let inPos = 0;
    let outPos = 0;
    for (const c of line) {
      if (c === '\t') {
        const spaces = TAB - (inPos % TAB);
        if (inPos === outPos) {
          const stop = outPos + spaces;
          if (options.expandTabs) {
            for (; outPos < Math.min(stop, bound); outPos++) out.push(' ');
          } else if (stop < bound) {
            outPos = stop;
            out.push('\t');
          }
        }
        inPos += spaces;
      } else if (c === '\r' || c === '\b' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) {
        // Control characters take no column, as GNU prints them.
        out.push(c);
      } else if (inPos++ < bound) {
        outPos = inPos;
        out.push(c);
      }
    }
    return outPos;
  };
  const row = (left: string | undefined, sep: string, right: string | undefined) => {
    let col = 0;
    if (left !== undefined) col = halfLine(left, half);
    if (sep !== ' ') {
      col = tabFromTo(col, Math.floor((half + column2 - 1) / 2)) + 1;
      out.push(sep);
    }
    if (right !== undefined && right !== '') {
      col = tabFromTo(col, column2);
      halfLine(right, half);
    }
    out.push('\n');
  };

  for (let k = 0; k < edits.length; ) {
    const edit = edits[k]!;
    if (edit.kind === 'same') {
      k++;
      if (options.suppressCommon) continue;
      if (options.leftColumn) row(edit.line, '(', undefined);
      else row(edit.line, ' ', edit.line);
      continue;
    }
    const { dels, adds, next } = change(edits, k);
    k = next;
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      if (i < dels.length && i < adds.length) row(dels[i], '|', adds[i]);
      else if (i < dels.length) row(dels[i], '<', undefined);
      else row(undefined, '>', adds[i]);
    }
  }
  return out.join('');
}
