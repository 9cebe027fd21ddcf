'use client';
// A value that follows another once it has settled: a view rebuilt from the whole log (the timeline) is
// rebuilt when events stop arriving for a moment, not at every frame of a replay or a burst, and at
// least every `maxWaitMs` while they keep coming.
import { useEffect, useRef, useState } from 'react';

/** `value` once it has not changed for `quietMs`, or `maxWaitMs` after the last update, whichever is first. */
export function useSettled<T>(value: T, quietMs: number, maxWaitMs: number): T {
  const [settled, setSettled] = useState(value);
  const since = useRef(Date.now());
  useEffect(() => {
    const wait = Math.min(quietMs, Math.max(0, since.current + maxWaitMs - Date.now()));
    const timer = setTimeout(() => {
      since.current = Date.now();
      setSettled(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, quietMs, maxWaitMs]);
  return settled;
}
