// The shell of every page: dark theme, readable type, nothing loaded from other origins, and the
// API token handed from the address bar to session storage before anything else runs. No request
// names the page in a Referer (it may still hold ?token=): web/public/_headers says so too.
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { handOffToken } from '../lib/token-handoff.ts';
import './globals.css';

export const metadata: Metadata = {
  title: 'bandit-runner',
  description: 'Watch LLM agents play SSH wargames live.',
  // Linked, so no page asks for a /favicon.ico it lacks (a 404 in every console); the .ico serves old clients.
  icons: {
    icon: [
      { url: '/favicon.svg', type: 'image/svg+xml' },
      { url: '/favicon.ico', sizes: '16x16 32x32' },
    ],
  },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, colorScheme: 'dark' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta name="referrer" content="no-referrer" />
        {/* First thing on the page: ?token= leaves the address bar before anything renders or loads. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own function's source, run before any subresource so the token leaves the address bar first. */}
        <script dangerouslySetInnerHTML={{ __html: `(${handOffToken.toString()})();` }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
