// The run page's pure helpers in Node: binary output shown as a clipped, escaped preview with its byte
// count; the log folded by level (and extended as events arrive); the search; the #seq-N link; the
// level kept in the run's range after a stop; and the fold appending a batch once (linear at 50k).
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { applyEvents, initialViewState } from '../../schema/run-view-state.ts';
import { ELF_OUTPUT, LongRunLog } from '../support/long-run.ts';
import { binarySummary, byteLength, escapedPreview, looksBinary, PREVIEW_CHARS } from '../../web/lib/binary-preview.ts';
import { clampLevel, extendGroups, groupByLevel, groupOfSeq } from '../../web/lib/level-groups.ts';
import { searchEvents } from '../../web/lib/search-events.ts';
import { seqOfHash } from '../../web/lib/use-hash-seq.ts';
import { terminalLines } from '../../web/components/terminal-pane.tsx';

describe('binary output', () => {
  it('is recognised, counted in bytes and shown escaped and clipped, never raw', () => {
    expect(looksBinary(ELF_OUTPUT)).toBe(true);
    expect(looksBinary('-rw-r----- 1 bandit1 readme\n\u001b[0mcolours\ttab\r\n')).toBe(false);
    expect(looksBinary('')).toBe(false);
    expect(byteLength(ELF_OUTPUT)).toBe(new TextEncoder().encode(ELF_OUTPUT).length);
    const summary = binarySummary(ELF_OUTPUT);
    expect(summary).toContain(`${byteLength(ELF_OUTPUT).toLocaleString('en')} bytes`);
    expect(summary).toContain('\\x7fELF\\x02\\x01\\x01\\x00');
    expect(summary.endsWith('…')).toBe(true);
    // Nothing outside printable ASCII is left in it: no NUL, no control, no replacement character.
    expect(summary.replace(/^binary output, [\d,]+ bytes: /, '')).toMatch(/^[\x20-\x7e…]*$/);
    expect(escapedPreview('a\\b\n\u0000é\u{1f600}', 10)).toBe('a\\\\b\\n\\x00\\xe9\\u{1f600}');
    expect(escapedPreview('x'.repeat(PREVIEW_CHARS + 5))).toBe(`${'x'.repeat(PREVIEW_CHARS)}…`);
  });

  it('becomes one note line in the terminal pane', () => {
    const log = new LongRunLog(100);
    log.grow(20);
    const lines = terminalLines(log.binary());
    expect(lines.map((l) => l.kind)).toEqual(['prompt', 'note']);
    expect(lines[1]!.text).toMatch(/^# binary output, [\d,]+ bytes: \\x7fELF/);
    expect(lines[1]!.text.length).toBeLessThan(400);
  });
});

describe('the log folded by level', () => {
  const log = new LongRunLog(2000);
  const events = log.grow(2000);
  const keep = (e: RunEvent) => e.type !== 'llm_call';

  it('makes one group per level in order, holding only the kept events', () => {
    const groups = groupByLevel(events, keep);
    // The run's start (its status change) comes before level 0.
    expect(groups[0]!.level).toBeNull();
    const levels = groups.slice(1).map((g) => g.level);
    expect(levels.slice(0, 3)).toEqual([0, 1, 2]);
    expect(new Set(levels).size).toBe(levels.length);
    expect(levels).toEqual([...levels].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(groups.flatMap((g) => g.events)).toEqual(events.filter(keep));
    const retried = groups.find((g) => g.events.filter((e) => e.type === 'level_started').length > 1);
    expect(retried).toBeDefined();
  });

  it('extended with later events equals grouping them all, and leaves earlier groups as they were', () => {
    const first = groupByLevel(events.slice(0, 1234), keep);
    const extended = extendGroups(first, events.slice(1234), keep);
    expect(extended).toEqual(groupByLevel(events, keep));
    expect(extended[0]).toBe(first[0]);
    expect(first.flatMap((g) => g.events)).toEqual(events.slice(0, 1234).filter(keep));
  });

  it('puts the run end in its own group, finds the group of a seq, and keeps a level in range', () => {
    const stopped = groupByLevel([...events, ...log.stop()]);
    expect(stopped.at(-1)?.level).toBeNull();
    expect(stopped.at(-1)?.events.map((e) => e.type)).toEqual(['run_complete']);
    const groups = groupByLevel(events);
    const third = groups[3]!;
    expect(groupOfSeq(groups, third.firstSeq)).toBe(third);
    expect(groupOfSeq(groups, third.firstSeq + 1)).toBe(third);
    expect(groupOfSeq(groups, third.firstSeq - 1)).toBe(groups[2]);
    expect(groupOfSeq(groups, 0)).toBeNull();
    expect(clampLevel(33, 0, 32)).toBe(32);
    expect(clampLevel(2, 5, 9)).toBe(5);
    expect(clampLevel(7, 5, 9)).toBe(7);
  });
});

describe('the search and the event link', () => {
  it('finds commands, outputs and thinking case-insensitively, capped, with the total', () => {
    const events = new LongRunLog(500).grow(500);
    const one = searchEvents(events, 'CAT README-77');
    const command = events.find((e) => e.type === 'command' && e.command.endsWith('readme-77'));
    expect(one.hits.map((h) => [h.type, h.seq])).toEqual([['command', command?.seq]]);
    const outputs = searchEvents(events, 'file-12-0');
    expect(outputs.hits.map((h) => h.type)).toEqual(['output']);
    const thinking = searchEvents(events, 'STEP 3:');
    expect(thinking.hits.map((h) => h.type)).toEqual(['thinking']);
    expect(thinking.hits[0]!.excerpt).toContain('Step 3:');
    const many = searchEvents(events, 'bandit', 10);
    expect(many.hits).toHaveLength(10);
    expect(many.total).toBeGreaterThan(10);
    expect(searchEvents(events, '   ').total).toBe(0);
  });

  it('reads #seq-N and nothing else', () => {
    expect(seqOfHash('#seq-42')).toBe(42);
    expect(seqOfHash('#seq-')).toBeNull();
    expect(seqOfHash('#seq-4x')).toBeNull();
    expect(seqOfHash('')).toBeNull();
  });
});

describe('applyEvents on a long log', () => {
  it('appends a batch once: the same state as one event at a time, and the earlier array untouched', () => {
    const events = new LongRunLog(50_000).grow(50_000);
    const batched = applyEvents(initialViewState, events).state;
    let single = initialViewState;
    for (let i = 0; i < 2000; i += 1) single = applyEvents(single, events.slice(i, i + 1)).state;
    const head = applyEvents(initialViewState, events.slice(0, 2000)).state;
    expect(single.events).toEqual(head.events);
    expect(single.record).toEqual(head.record);
    expect(batched.events).toHaveLength(events.length);
    expect(batched.lastSeq).toBe(events.length);
    const more = applyEvents(head, events.slice(2000, 2010)).state;
    expect(head.events).toHaveLength(2000);
    expect(more.events).toHaveLength(2010);
  });
});
