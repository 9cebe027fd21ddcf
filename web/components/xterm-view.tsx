'use client';
// One xterm.js screen fed by the run's TerminalFeed. Typing goes out only while this tab holds the
// terminal (otherwise stdin is off); the holder's screen fits its box, a watcher's takes the holder's
// size and scrolls sideways on a narrow screen. xterm.js is loaded on first use, in the browser only.
import '@xterm/xterm/css/xterm.css';
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import type { TerminalSize } from '../../schema/terminal.ts';
import { terminalSizeSchema } from '../../schema/terminal.ts';
import type { TerminalFeed } from '../lib/terminal-feed.ts';

/** What the panel may ask of a made screen. */
export type XtermHandle = {
  /** The size that fills the box now, inside the protocol's limits. */
  fitSize: () => TerminalSize;
  focus: () => void;
};

type Props = {
  feed: TerminalFeed;
  /** This tab holds the terminal: keys and resizes go out. */
  interactive: boolean;
  /** A watcher's size: the holder's, as the server last said. */
  viewSize: TerminalSize | null;
  /** The holder's chosen height in rows (a small one makes `more` stop, as on level 25); null fits the box. */
  rows: number | null;
  onInput: (data: string) => void;
  onResize: (size: TerminalSize) => void;
  /** Called once the screen is made (xterm.js loads on first use). */
  onReady: (handle: XtermHandle) => void;
};

const { cols: COLS, rows: ROWS } = terminalSizeSchema.shape;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(n)));

/** `size` inside the limits terminalSizeSchema sets (a tiny box still gives a valid size). */
function bounded(size: { cols: number; rows: number }): TerminalSize {
  return {
    cols: clamp(size.cols, COLS.minValue ?? 10, COLS.maxValue ?? 500),
    rows: clamp(size.rows, ROWS.minValue ?? 4, ROWS.maxValue ?? 200),
  };
}

/** Scrolls `element` back into the window when none of it is in the window. */
function keepInView(element: HTMLElement | undefined): void {
  if (!element) return;
  const { top, bottom } = element.getBoundingClientRect();
  if (bottom <= 0 || top >= window.innerHeight) element.scrollIntoView({ block: 'nearest' });
}

export function XtermView(props: Props) {
  const frame = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const screen = useRef<{ terminal: Terminal; fit: FitAddon } | null>(null);
  const sizer = useRef<(() => TerminalSize) | null>(null);
  // The latest props, read by xterm's callbacks, which are bound once.
  const latest = useRef(props);
  latest.current = props;
  const { feed, interactive, viewSize, rows } = props;

  useEffect(() => {
    let disposed = false;
    let detach: (() => void) | null = null;
    let observer: ResizeObserver | null = null;
    // Whether the screen (xterm's element) was in the window when last seen: before a resize moved it.
    let seen: IntersectionObserver | null = null;
    let shown = false;
    void Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit')]).then(([xterm, addon]) => {
      const element = box.current;
      if (disposed || !element) return;
      const terminal = new xterm.Terminal({
        disableStdin: !latest.current.interactive,
        scrollback: 5000,
        fontSize: 13,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
        cursorBlink: true,
        theme: { background: '#0b0d10', foreground: '#e6e6e6' },
      });
      const fit = new addon.FitAddon();
      terminal.loadAddon(fit);
      terminal.open(element);
      const typed = (data: string) => {
        if (latest.current.interactive) latest.current.onInput(data);
      };
      terminal.onData(typed);
      terminal.onBinary(typed);
      terminal.onResize((size) => {
        if (latest.current.interactive) latest.current.onResize(bounded(size));
        // xterm.js draws nothing while its screen is out of the window (it redraws once back in view). A
        // screen seen only in part, its bottom rows, is out of the window once a resize shrinks it (a
        // watcher following the holder's Rows: its screen sits at the top of a fixed frame); keep it in view.
        if (shown) requestAnimationFrame(() => keepInView(terminal.element));
      });
      detach = feed.attach((op) => {
        if (op.kind === 'bytes') terminal.write(op.bytes);
        else if (!latest.current.interactive) terminal.resize(op.cols, op.rows);
      });
      screen.current = { terminal, fit };
      const fitSize = () => {
        const fits = fit.proposeDimensions() ?? { cols: terminal.cols, rows: terminal.rows };
        return bounded({ cols: fits.cols, rows: latest.current.rows ?? fits.rows });
      };
      sizer.current = fitSize;
      // The holder's screen follows its box (a window resized, a phone turned); a watcher's does not.
      observer = new ResizeObserver(() => {
        if (!latest.current.interactive) return;
        const size = fitSize();
        if (size.cols !== terminal.cols || size.rows !== terminal.rows) terminal.resize(size.cols, size.rows);
      });
      if (frame.current) observer.observe(frame.current);
      seen = new IntersectionObserver((entries) => {
        for (const entry of entries) shown = entry.isIntersecting;
      });
      if (terminal.element) seen.observe(terminal.element);
      latest.current.onReady({ fitSize, focus: () => terminal.focus() });
    });
    return () => {
      disposed = true;
      detach?.();
      observer?.disconnect();
      seen?.disconnect();
      screen.current?.terminal.dispose();
      screen.current = null;
    };
  }, [feed]);

  // Holding it: stdin on, the box's size (or the rows chosen: sizer reads them), focus. Watching: stdin
  // off, the holder's size.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new rows choice is a trigger, read through sizer.
  useEffect(() => {
    const made = screen.current;
    if (!made) return;
    made.terminal.options.disableStdin = !interactive;
    if (interactive && sizer.current) {
      const size = sizer.current();
      if (size.cols !== made.terminal.cols || size.rows !== made.terminal.rows)
        made.terminal.resize(size.cols, size.rows);
      made.terminal.focus();
    } else if (!interactive && viewSize) {
      made.terminal.resize(viewSize.cols, viewSize.rows);
    }
  }, [interactive, viewSize, rows]);

  return (
    <div
      ref={frame}
      className="xterm-frame"
      data-interactive={String(interactive)}
      data-rows={interactive && rows !== null ? rows : undefined}
    >
      <div ref={box} className="xterm-box" />
    </div>
  );
}
