'use client';
// Keeps a scrolling list at its bottom as items arrive, unless the reader has scrolled up to read.
import { useEffect, useRef } from 'react';

export function useStickToBottom<T extends HTMLElement>(itemCount: number) {
  const ref = useRef<T>(null);
  const stuck = useRef(true);
  /** Where we last scrolled to ourselves; scroll events fire late, after more content may have come. */
  const placed = useRef(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      // Only a move above our own position is the reader's; reaching the bottom again re-attaches.
      if (atBottom) stuck.current = true;
      else if (el.scrollTop + 2 < placed.current) stuck.current = false;
    };
    el.addEventListener('scroll', onScroll);
    return () => el.removeEventListener('scroll', onScroll);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependency is the trigger, not a value read inside.
  useEffect(() => {
    const el = ref.current;
    if (!el || !stuck.current) return;
    el.scrollTop = el.scrollHeight;
    placed.current = el.scrollTop;
  }, [itemCount]);
  return ref;
}
