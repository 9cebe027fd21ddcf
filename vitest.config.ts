// `npm test` runs three projects: worker tests inside workerd (the Workers Vitest integration),
// Node tests for the schema, proxy and range, and end-to-end tests that start the real stack.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// wrangler.toml declares PROXY_SECRET as a required secret; the tests bind their own below, and this
// keeps the integration from warning that the variable is unset.
process.env.PROXY_SECRET ??= 'overridden-by-the-test-binding';
// Empty means unset: the worker then serves loopback clients only, as in local use.
process.env.API_TOKEN ??= '';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on these 2-core machines, one, so the node and
    // worker projects ran a file at a time (about 500 s). Two at once take 291 s; their files wait on
    // sockets, subprocesses and timers as much as they compute. The e2e project stays at one (below).
    maxWorkers: 2,
    projects: [
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                // The real proxy and range, started on free ports by test/support/worker-global-setup.ts.
                PROXY_URL: inject('proxyUrl'),
                PROXY_SECRET: inject('proxySecret'),
                // The fake OpenAI endpoint behind the real proxy; tests read what it was sent.
                TEST_OPENAI_URL: inject('openaiUrl'),
                // Quick retries, so the proxy_unreachable pause comes within a test's time.
                PROXY_RETRY_MS: '20',
                PROXY_MAX_FAILURES: '3',
                MIRROR_RETRY_MS: '20',
                // Many tests' runs at once; the queue's own limits are tested through a provider's limit.
                MAX_RUNNING_RUNS: '500',
                // A terminal nobody types in closes within a test (test/worker/terminal.test.ts); the tests type sooner.
                TERMINAL_IDLE_MS: '8000',
                TEST_MIGRATIONS: await readD1Migrations('./schema/migrations'),
              },
            },
          })),
        ],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
          globalSetup: ['test/support/worker-global-setup.ts'],
          setupFiles: ['test/worker/apply-migrations.ts'],
          // A test's own waits say how long it may take; the 5 s default cut a batch test short on a loaded machine.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/{schema,ssh-proxy,practice,cli,deploy}/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          // One whole stack at a time: four at once on two cores starve each other, and a port one
          // stack has just freed could be taken by another before the leak check looks at it.
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
