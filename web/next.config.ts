// The web UI is exported as static files into web/out, which the worker serves as Workers assets.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

const config: NextConfig = {
  output: 'export',
  trailingSlash: false,
  images: { unoptimized: true },
  // The app imports ../schema, so Turbopack's root is the repository.
  turbopack: { root },
  typescript: { tsconfigPath: 'tsconfig.json' },
};

export default config;
