'use client';
// A link to one event, /run?id=…#seq-N: the seq it names, read on load and on every change of the hash.
import { useEffect, useState } from 'react';

/** N from `#seq-N`, or null when the hash names no event. */
export function seqOfHash(hash: string): number | null {
  const match = /^#seq-(\d{1,12})$/.exec(hash);
  return match ? Number(match[1]) : null;
}

/** The seq the page's address points at, with a counter that grows each time it is set again. */
export function useHashSeq(): { seq: number; nonce: number } | null {
  const [wanted, setWanted] = useState<{ seq: number; nonce: number } | null>(null);
  useEffect(() => {
    const read = () => {
      const seq = seqOfHash(window.location.hash);
      setWanted((w) => (seq === null ? null : { seq, nonce: (w?.nonce ?? 0) + 1 }));
    };
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  return wanted;
}
