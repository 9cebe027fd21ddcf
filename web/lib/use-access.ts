'use client';
// Who this tab is, asked once per page load (GET /api/access), so a page shows only what its role may
// use: a viewer or a share link sees no acting control. The server refuses anyway; this keeps the
// page honest. Until the answer comes nothing that acts is shown.
import { useEffect, useState } from 'react';
import type { AccessInfo } from '../../schema/access.ts';
import { canAct } from '../../schema/access.ts';
import { fetchAccess } from './api.ts';

/** What the page may show: `canAct` for pause, stop, answers, messages, the terminal, forks and shares. */
export type PageAccess = { known: boolean; canAct: boolean; share: boolean; info: AccessInfo | null };

let asked: Promise<AccessInfo | null> | null = null;

/** The one GET /api/access of this page load; null when it failed (the server still decides each call). */
function accessOnce(): Promise<AccessInfo | null> {
  asked ??= fetchAccess().catch(() => null);
  return asked;
}

/** This tab's access; controls that act stay hidden until it is known, and for viewers and share links. */
export function useAccess(): PageAccess {
  const [state, setState] = useState<PageAccess>({ known: false, canAct: false, share: false, info: null });
  useEffect(() => {
    let live = true;
    accessOnce().then((info) => {
      if (!live) return;
      // Unknown (the call failed): show the controls and let the server's answer say why an action fails.
      setState({
        known: true,
        canAct: info ? canAct(info.role) : true,
        share: info?.role === 'share',
        info,
      });
    });
    return () => {
      live = false;
    };
  }, []);
  return state;
}
