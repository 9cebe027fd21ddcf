'use client';
// Keeps a scrolling list at its bottom as items arrive, unless the reader has scrolled up to read.
import { useEffect, useRef } from 'react';

export function useStickToBottom<T extends HTMLElement>(itemCount: number) {
  const ref = useRef<T>(null);
  const stuck = useRef(true);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    };
    el.addEventListener('scroll', onScroll);
    return () => el.removeEventListener('scroll', onScroll);
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [itemCount]);
  return ref;
}
