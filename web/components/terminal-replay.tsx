'use client';
// The run's terminal played back from its terminal.cast (the archive's recording), in asciinema-player,
// with a speed control. Loaded only when a person opens it: the player is not needed to watch a run live.
import { Problem } from './form-problem.tsx';
import 'asciinema-player/dist/bundle/asciinema-player.css';
import { useEffect, useRef, useState } from 'react';
import type { Player } from 'asciinema-player';
import { fetchTerminalCast } from '../lib/api.ts';

const SPEEDS = [0.5, 1, 2, 4, 8] as const;

export function TerminalReplay({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  const [speed, setSpeed] = useState<number>(2);
  const [problem, setProblem] = useState<string | null>(null);
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open || !holder.current) return;
    const controller = new AbortController();
    let player: Player | null = null;
    const element = holder.current;
    setProblem(null);
    Promise.all([fetchTerminalCast(runId, controller.signal), import('asciinema-player')])
      .then(([cast, AsciinemaPlayer]) => {
        if (controller.signal.aborted) return;
        player = AsciinemaPlayer.create({ data: cast }, element, {
          speed,
          idleTimeLimit: 2,
          fit: 'width',
          autoPlay: true,
          terminalFontSize: 'small',
        });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setProblem(err instanceof Error ? err.message : String(err));
      });
    return () => {
      controller.abort();
      player?.dispose();
      element.replaceChildren();
    };
    // Opening (again) or a new speed loads the recording as it stands now.
  }, [open, runId, speed]);

  return (
    <section className="terminal-replay" aria-label="Terminal replay">
      <div className="terminal-replay-bar">
        <h2>Terminal replay</h2>
        <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Close replay' : 'Replay terminal'}
        </button>
        {open && (
          <label>
            Speed{' '}
            <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))} aria-label="Replay speed">
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <Problem text={problem} />
      {open && <div ref={holder} className="terminal-replay-player" data-speed={speed} />}
    </section>
  );
}
