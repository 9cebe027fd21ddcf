// The proxy's settings from the environment, validated at start-up with messages that say what to set.
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';
import { readFileSync } from 'node:fs';
import type { CallSettings } from './models/openai-model.ts';
import type { Provider } from './models/providers.ts';
import { checkDistinctModels, legacyProvider, parseProviders } from './models/providers.ts';
import type { PoolOptions } from './ssh/session-pool.ts';

const portSchema = z.coerce
  .number()
  .int()
  .min(1, 'must be a port number 1-65535')
  .max(65535, 'must be a port number 1-65535');
const ms = (fallback: number) =>
  z.coerce.number().int('must be whole milliseconds').min(1, 'must be at least 1 ms').default(fallback);

const pricesSchema = z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) }));

const proxyEnvBaseSchema = z.object({
  PROXY_HOST: z.string().min(1).default('127.0.0.1'),
  // 0 picks a free port (tests).
  PROXY_PORT: z.coerce
    .number()
    .int()
    .min(0, 'must be a port number 0-65535')
    .max(65535, 'must be a port number 0-65535')
    .default(8788),
  PROXY_SECRET: z.string().min(16, 'must be at least 16 characters (the worker sends it as a bearer token)'),
  PROXY_SLICE_MS: ms(10_000),
  PROXY_STEP_LIMIT: z.coerce.number().int().min(1, 'must be at least 1').default(2_000),
  PROXY_CALL_MAX_MS: ms(120_000),
  // Coalescing of the model's text while it is written: one live line per this many ms at most.
  PROXY_LIVE_MS: ms(100),
  PRACTICE_HOST: z.string().min(1).default('127.0.0.1'),
  PRACTICE_PORT: portSchema.default(2220),
  BANDIT_HOST: z.string().min(1).default('bandit.labs.overthewire.org'),
  BANDIT_PORT: portSchema.default(2220),
  SSH_CONNECT_TIMEOUT_MS: ms(10_000),
  SSH_COMMAND_TIMEOUT_MS: ms(15_000),
  // At most 80 KiB: an output event carries both streams, and a control byte is six bytes of JSON,
  // so the event stays inside the 1 MiB line the worker reads.
  SSH_OUTPUT_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(
      80 * 1024,
      'must be at most 81920 (an output event holds both streams, up to six JSON bytes per byte, within the 1 MiB line limit)',
    )
    .default(64 * 1024),
  SSH_IDLE_MS: ms(120_000),
  OPENAI_BASE_URL: z.url('must be a URL such as https://api.openai.com/v1').default('https://api.openai.com/v1'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODELS: z.string().default(''),
  OPENAI_MAX_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(256, 'must be at most 256')
    .default(4),
  // Several endpoints: a JSON file, or the same JSON in the variable (docs/providers.md).
  PROVIDERS_FILE: z.string().min(1).optional(),
  PROVIDERS: z.string().min(1).optional(),
  OPENAI_TIMEOUT_MS: ms(60_000),
  LLM_MAX_ATTEMPTS: z.coerce.number().int().min(1, 'must be at least 1').max(10, 'must be at most 10').default(4),
  LLM_BACKOFF_MS: ms(1_000),
  LLM_BACKOFF_MAX_MS: ms(30_000),
  // OpenTelemetry export, off unless an endpoint is given (docs/agent.md).
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url('must be the OTLP/HTTP base URL, such as http://127.0.0.1:4318').optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('bandit-runner-proxy'),
  OPENAI_PRICES: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return pricesSchema.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'must be JSON like {"gpt-4o-mini":{"input":0.15,"output":0.6}} (USD per million tokens)',
        });
        return z.NEVER;
      }
    }),
});

// Refused at start-up: limits under which a model call could never finish inside one call.
const proxyEnvSchema = proxyEnvBaseSchema.superRefine((e, ctx) => {
  if (e.PROXY_CALL_MAX_MS <= e.PROXY_SLICE_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['PROXY_CALL_MAX_MS'],
      message: `must be more than PROXY_SLICE_MS (${e.PROXY_SLICE_MS})`,
    });
  }
  if (e.PROVIDERS_FILE && e.PROVIDERS) {
    ctx.addIssue({
      code: 'custom',
      path: ['PROVIDERS'],
      message: 'set PROVIDERS_FILE or PROVIDERS, not both (they are the same JSON, in a file or in the variable)',
    });
  }
  if (e.OPENAI_TIMEOUT_MS >= e.PROXY_CALL_MAX_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['OPENAI_TIMEOUT_MS'],
      message: `must be less than PROXY_CALL_MAX_MS (${e.PROXY_CALL_MAX_MS}), or no slow model answer could ever finish`,
    });
  }
});

/** What the proxy needs to run. */
export type ProxySettings = {
  host: string;
  port: number;
  secret: string;
  /** A call to /v1/advance yields after this long, or after stepLimit nodes. */
  sliceMs: number;
  /** A node still running this long after a call began is cut, and the call yields. */
  callMaxMs: number;
  stepLimit: number;
  /** At most one live line of a model's text per this many milliseconds. */
  liveMs: number;
  practice: { host: string; port: number };
  bandit: { host: string; port: number };
  ssh: PoolOptions;
  /** The OpenAI-compatible endpoints and their models (baseline is built in and not listed). */
  providers: Provider[];
  /** How every model call is made: timeout, tries and backoff. */
  llm: CallSettings;
  /** Where runs are sent as OpenTelemetry traces; null: nowhere. */
  otel: { endpoint: string; serviceName: string } | null;
};

/** Settings from `env`, or an Error whose message names each bad variable. */
export function readProxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  const parsed = proxyEnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`ssh-proxy configuration is invalid: ${describeIssues(parsed.error)}`);
  const e = parsed.data;
  let providers: Provider[];
  try {
    providers = readProviders(e, env);
  } catch (err) {
    throw new Error(`ssh-proxy configuration is invalid: ${(err as Error).message}`);
  }
  return {
    host: e.PROXY_HOST,
    port: e.PROXY_PORT,
    secret: e.PROXY_SECRET,
    sliceMs: e.PROXY_SLICE_MS,
    callMaxMs: e.PROXY_CALL_MAX_MS,
    stepLimit: e.PROXY_STEP_LIMIT,
    liveMs: e.PROXY_LIVE_MS,
    practice: { host: e.PRACTICE_HOST, port: e.PRACTICE_PORT },
    bandit: { host: e.BANDIT_HOST, port: e.BANDIT_PORT },
    ssh: {
      connectTimeoutMs: e.SSH_CONNECT_TIMEOUT_MS,
      commandTimeoutMs: e.SSH_COMMAND_TIMEOUT_MS,
      maxOutputBytes: e.SSH_OUTPUT_BYTES,
      idleMs: e.SSH_IDLE_MS,
    },
    providers,
    llm: {
      timeoutMs: e.OPENAI_TIMEOUT_MS,
      maxAttempts: e.LLM_MAX_ATTEMPTS,
      backoffBaseMs: e.LLM_BACKOFF_MS,
      backoffMaxMs: e.LLM_BACKOFF_MAX_MS,
    },
    otel: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME }
      : null,
  };
}

/** The providers file (or PROVIDERS) and the OPENAI_* provider, checked against each other. */
function readProviders(
  e: z.infer<typeof proxyEnvBaseSchema>,
  env: Readonly<Record<string, string | undefined>>,
): Provider[] {
  let listed: Provider[] = [];
  if (e.PROVIDERS_FILE) {
    let text: string;
    try {
      text = readFileSync(e.PROVIDERS_FILE, 'utf8');
    } catch (err) {
      throw new Error(
        `PROVIDERS_FILE: cannot read ${e.PROVIDERS_FILE} (${(err as NodeJS.ErrnoException).code ?? String(err)}); give the path of a providers file (docs/providers.md)`,
      );
    }
    listed = parseProviders(text, `PROVIDERS_FILE (${e.PROVIDERS_FILE})`, env);
  } else if (e.PROVIDERS) {
    listed = parseProviders(e.PROVIDERS, 'PROVIDERS', env);
  }
  const legacy = legacyProvider({
    baseUrl: e.OPENAI_BASE_URL,
    apiKey: e.OPENAI_API_KEY ?? null,
    models: e.OPENAI_MODELS.split(',')
      .map((m) => m.trim())
      .filter(Boolean),
    prices: e.OPENAI_PRICES,
    maxConcurrent: e.OPENAI_MAX_CONCURRENT,
  });
  if (legacy && listed.some((p) => p.name === legacy.name)) {
    throw new Error(
      'OPENAI_MODELS and a provider named "openai" in the providers file both define provider "openai"; move OPENAI_MODELS into the file, or rename the file\'s provider',
    );
  }
  const providers = legacy ? [legacy, ...listed] : listed;
  checkDistinctModels(providers);
  return providers;
}
