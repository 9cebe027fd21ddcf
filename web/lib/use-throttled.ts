'use client';
// A value that follows another at most once per interval: a view that rebuilds from the whole log (the
// timeline) then costs one rebuild a second during a burst of events instead of one per frame.
import { useEffect, useRef, useState } from 'react';

/** `value`, updated at most every `ms` (the latest value always arrives, at most `ms` late). */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setShown(value);
      return;
    }
    const timer = setTimeout(() => {
      last.current = Date.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return shown;
}
