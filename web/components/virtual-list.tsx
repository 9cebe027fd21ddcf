'use client';
// A scrolling list that renders only the rows on screen (and a screen's worth either side), so a run of
// 50,000 events costs the page what one of 1,000 does. Rows may differ in height: each is measured once
// shown, and an estimate stands in until then. It follows the bottom as rows arrive unless the reader
// has scrolled up, and scrolls to a row on request (a search hit, a level box, a #seq-N link).
import type { HTMLAttributes, ReactNode } from 'react';
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';

/** A request to bring row `index` to the top; a new `nonce` asks again for the same row. */
export type ScrollTarget = { index: number; nonce: number };

type Props<T> = {
  items: readonly T[];
  itemKey: (item: T) => string;
  /** A first guess at a row's height in px, used until it is measured. */
  estimate: (item: T) => number;
  renderItem: (item: T) => ReactNode;
  /** The attributes of a row's own element (id, class, data-*). */
  rowProps?: (item: T) => HTMLAttributes<HTMLElement> & Record<`data-${string}`, string | number | undefined>;
  /** `ol`/`li` for a list of entries, `pre`/`span` for a terminal's lines. */
  as: 'ol' | 'pre';
  target?: ScrollTarget | null;
  /** Changes when rows change other than at the end (a level folded or opened): the heights are summed again. */
  resetKey?: string;
  /** What follows the rows inside the scroller (the live text), always rendered. */
  tail?: ReactNode;
} & Omit<HTMLAttributes<HTMLElement>, 'children'>;

const OVERSCAN_PX = 600;
const NEAR_BOTTOM_PX = 40;

/** The windowed list; every other attribute goes to the scrolling element. */
export function VirtualList<T>({
  items,
  itemKey,
  estimate,
  renderItem,
  rowProps,
  as,
  target,
  resetKey,
  tail,
  ...rest
}: Props<T>) {
  const ref = useRef<HTMLElement | null>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, remeasure] = useReducer((n: number) => n + 1, 0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const stuck = useRef(true);
  const placed = useRef(0);
  const pending = useRef<ScrollTarget | null>(null);
  const tries = useRef(0);

  // Prefix sums of the row heights, kept between renders: rows appended at the end (the live case) are
  // added to them, so an update costs the new rows, not the whole log. `valid` rows are still right.
  const sums = useRef<{ items: readonly T[]; reset: unknown; offsets: Float64Array; valid: number }>({
    items: [],
    reset: undefined,
    offsets: new Float64Array(1),
    valid: 0,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `measured` is the trigger to read the heights again.
  const offsets = useMemo(() => {
    const c = sums.current;
    let valid = c.valid;
    if (c.items !== items || c.reset !== resetKey) {
      const n = c.items.length;
      const appended =
        c.reset === resetKey && n > 0 && n <= items.length && itemKey(c.items[n - 1]!) === itemKey(items[n - 1]!);
      valid = appended ? Math.min(valid, n) : 0;
    }
    let out = c.offsets;
    if (out.length < items.length + 1) {
      out = new Float64Array(Math.max(2 * out.length, items.length + 1));
      out.set(c.offsets.subarray(0, valid + 1));
    }
    for (let i = valid; i < items.length; i++) {
      const item = items[i]!;
      out[i + 1] = out[i]! + (heights.current.get(itemKey(item)) ?? estimate(item));
    }
    sums.current = { items, reset: resetKey, offsets: out, valid: items.length };
    return out;
  }, [items, itemKey, estimate, measured, resetKey]);
  const total = offsets[items.length] ?? 0;

  // Following the bottom, the window is the end, whatever the last scroll event said.
  const top = stuck.current && !pending.current ? Math.max(0, total - viewport) : scrollTop;
  const first = Math.max(0, upperBound(offsets.subarray(0, items.length + 1), top - OVERSCAN_PX) - 1);
  const last = Math.min(items.length, upperBound(offsets.subarray(0, items.length + 1), top + viewport + OVERSCAN_PX));

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let frame: number | null = null;
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
      // Only a move above our own position is the reader's; reaching the bottom again re-attaches.
      if (atBottom && !pending.current) stuck.current = true;
      else if (el.scrollTop + 2 < placed.current) stuck.current = false;
      frame ??= requestAnimationFrame(() => {
        frame = null;
        setScrollTop(el.scrollTop);
      });
    };
    const resize = new ResizeObserver(() => setViewport(el.clientHeight || 600));
    resize.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      resize.disconnect();
      el.removeEventListener('scroll', onScroll);
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, []);

  useEffect(() => {
    if (!target) return;
    pending.current = target;
    tries.current = 0;
    stuck.current = false;
    remeasure();
  }, [target]);

  // After each render: measure the rows shown, then place the scroll (a target, or the bottom).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let changed = false;
    const c = sums.current;
    // Only rows not measured yet: reading every row's height at every update forces a layout per frame.
    for (const row of el.querySelectorAll<HTMLElement>(':scope > [data-vkey]')) {
      const key = row.dataset.vkey!;
      if (heights.current.has(key)) continue;
      const h = row.offsetHeight;
      if (h > 0 && heights.current.get(key) !== h) {
        heights.current.set(key, h);
        c.valid = Math.min(c.valid, Number(row.dataset.vindex));
        changed = true;
      }
    }
    const want = pending.current;
    if (want) {
      const y = offsets[Math.min(want.index, items.length)] ?? 0;
      el.scrollTop = y;
      placed.current = el.scrollTop;
      if (scrollTop !== el.scrollTop) setScrollTop(el.scrollTop);
      // Held until the rows above it are measured and the place stops moving (or the list can scroll
      // no further: a row near the end), and never longer than a few passes, so live rows do not pull back.
      const end = el.scrollTop >= el.scrollHeight - el.clientHeight - 1;
      tries.current += 1;
      if ((!changed && (Math.abs(el.scrollTop - y) < 1 || end)) || tries.current > 20) pending.current = null;
    } else if (stuck.current) {
      el.scrollTop = el.scrollHeight;
      placed.current = el.scrollTop;
    }
    if (changed) remeasure();
  });

  const Row = as === 'ol' ? 'li' : 'span';
  const Outer = as;
  const before = offsets[first] ?? 0;
  const after = total - (offsets[last] ?? total);
  return (
    <Outer ref={ref as never} {...rest} data-rows={items.length} tabIndex={0}>
      <Row aria-hidden="true" className="v-spacer" style={{ height: before }} />
      {items.slice(first, last).map((item, i) => {
        const key = itemKey(item);
        return (
          <Row key={key} data-vkey={key} data-vindex={first + i} {...rowProps?.(item)}>
            {renderItem(item)}
          </Row>
        );
      })}
      <Row aria-hidden="true" className="v-spacer" style={{ height: after }} />
      {tail}
    </Outer>
  );
}

/** The first index whose offset is above `y` (offsets ascend). */
function upperBound(offsets: Float64Array, y: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
