// The OpenAI-compatible endpoints the proxy offers models from: a providers file (PROVIDERS_FILE),
// its environment form (PROVIDERS, the same JSON), and the single-endpoint OPENAI_* variables kept
// from before. Each provider names the environment variable that holds its key, so keys stay in the
// proxy's environment and never in a file that might be shared. See docs/providers.md.
import { z } from 'zod';
import { describeIssues } from '../../schema/issues.ts';

/** USD per million tokens. */
export type Price = { input: number; output: number };

/** The answer's token limit a call under a cap is sent when the model's entry names none. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/**
 * One model of a provider: the name runs use (`provider/model`), the name the endpoint knows, its price,
 * and the answer's token limit a call under a cap carries (what its worst case counts for the answer).
 */
export type ProviderModel = { id: string; remote: string; price: Price | null; maxOutputTokens: number };

export type Provider = {
  name: string;
  baseUrl: string;
  /** The key from the environment; null when unset or when the endpoint needs none. */
  apiKey: string | null;
  /** The variable the key is read from; null for an endpoint without keys (Ollama, a local vLLM). */
  keyEnv: string | null;
  /** Runs of this provider's models that may be running at once (the queue keeps the rest waiting). */
  maxConcurrent: number;
  /** Whether plan calls stream; a provider that turns out not to stream falls back by itself. */
  stream: boolean;
  /**
   * The request field that limits the answer, sent only on calls under a cap: OpenAI's current models refuse
   * `max_tokens` and take `max_completion_tokens`; most other endpoints take `max_tokens`.
   */
  outputLimit: OutputLimitField;
  models: ProviderModel[];
};

/** The names OpenAI-compatible endpoints give the answer's token limit. */
export type OutputLimitField = 'max_tokens' | 'max_completion_tokens';

/** OpenAI's own API and Azure's take `max_completion_tokens`; other endpoints `max_tokens`. */
export function defaultOutputLimit(baseUrl: string): OutputLimitField {
  const host = new URL(baseUrl).hostname;
  return host === 'api.openai.com' || host.endsWith('.openai.azure.com') ? 'max_completion_tokens' : 'max_tokens';
}

const priceSchema = z.strictObject({
  input: z.number().min(0, 'must be 0 or more (USD per million input tokens)'),
  output: z.number().min(0, 'must be 0 or more (USD per million output tokens)'),
});

const maxOutputSchema = z
  .number({ error: 'must be a whole number of tokens' })
  .int('must be a whole number of tokens')
  .min(1, 'must be at least 1 token')
  .max(1_000_000, 'must be at most 1,000,000 tokens')
  .optional();

const remoteNameSchema = z
  .string()
  .trim()
  .min(1, 'name the model as the endpoint knows it')
  .max(90)
  .regex(/^[\w.:/@+-]+$/, 'may hold letters, digits and . : / @ + - _ only');

const providerSchema = z.strictObject({
  name: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9_-]{0,30}$/,
      'must be lower-case letters, digits, - and _ (it prefixes the model names, e.g. "openrouter")',
    ),
  baseUrl: z.url({
    protocol: /^https?$/,
    error: 'must be the endpoint URL ending in /v1, e.g. https://openrouter.ai/api/v1',
  }),
  apiKeyEnv: z
    .string()
    .regex(
      /^[A-Z_][A-Z0-9_]*$/,
      'must be the NAME of an environment variable, e.g. OPENROUTER_API_KEY, not the key itself',
    )
    .nullable()
    .default(null),
  maxConcurrent: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(256, 'must be at most 256')
    .default(4),
  stream: z.boolean({ error: 'must be true or false' }).default(true),
  /** The field that limits the answer on calls under a cap; by default from the base URL (defaultOutputLimit). */
  outputLimit: z
    .enum(['max_tokens', 'max_completion_tokens'], { error: 'must be "max_tokens" or "max_completion_tokens"' })
    .optional(),
  models: z
    .array(
      z.union([
        remoteNameSchema,
        z.strictObject({ name: remoteNameSchema, price: priceSchema.optional(), maxOutputTokens: maxOutputSchema }),
      ]),
    )
    .min(1, 'list at least one model'),
});

export const providersFileSchema = z
  .strictObject({ providers: z.array(providerSchema).min(1, 'list at least one provider') })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.providers.forEach((p, i) => {
      if (seen.has(p.name))
        ctx.addIssue({ code: 'custom', path: ['providers', i, 'name'], message: `"${p.name}" is listed twice` });
      if (p.name === 'baseline' || p.name === 'replay' || p.name === 'human')
        ctx.addIssue({
          code: 'custom',
          path: ['providers', i, 'name'],
          message: `"${p.name}" is a built-in model's name`,
        });
      seen.add(p.name);
    });
  });
export type ProvidersFile = z.infer<typeof providersFileSchema>;

/** The providers a file's text describes, keys read from `env`; an Error naming what to fix. */
export function parseProviders(
  text: string,
  source: string,
  env: Readonly<Record<string, string | undefined>>,
): Provider[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${source} is not JSON (${err instanceof Error ? err.message : String(err)}); see docs/providers.md for the format`,
    );
  }
  const parsed = providersFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${source} is invalid: ${describeIssues(parsed.error)}`);
  return parsed.data.providers.map((p) => ({
    name: p.name,
    baseUrl: p.baseUrl.replace(/\/+$/, ''),
    apiKey: p.apiKeyEnv ? env[p.apiKeyEnv] || null : null,
    keyEnv: p.apiKeyEnv,
    maxConcurrent: p.maxConcurrent,
    stream: p.stream,
    outputLimit: p.outputLimit ?? defaultOutputLimit(p.baseUrl),
    models: p.models.map((m) => {
      const entry = typeof m === 'string' ? { name: m } : m;
      return {
        id: `${p.name}/${entry.name}`,
        remote: entry.name,
        price: entry.price ?? null,
        maxOutputTokens: entry.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      };
    }),
  }));
}

/**
 * The OPENAI_* form: one provider named "openai" whose models keep their bare names, so runs and
 * scripts written before the providers file go on working.
 */
export function legacyProvider(e: {
  baseUrl: string;
  apiKey: string | null;
  models: string[];
  prices: Record<string, Price>;
  maxConcurrent: number;
}): Provider | null {
  if (e.models.length === 0) return null;
  return {
    name: 'openai',
    baseUrl: e.baseUrl.replace(/\/+$/, ''),
    apiKey: e.apiKey,
    keyEnv: 'OPENAI_API_KEY',
    maxConcurrent: e.maxConcurrent,
    stream: true,
    outputLimit: defaultOutputLimit(e.baseUrl),
    models: e.models.map((id) => ({
      id,
      remote: id,
      price: e.prices[id] ?? null,
      maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    })),
  };
}

/** Why a provider's models cannot run now, or null when they can. */
export function unavailableReason(p: Provider): string | null {
  if (p.keyEnv && !p.apiKey) return `${p.keyEnv} is not set in the proxy`;
  return null;
}

/** Every provider's models, refused when two providers would offer the same model name. */
export function checkDistinctModels(providers: readonly Provider[]): void {
  const owner = new Map<string, string>();
  for (const p of providers) {
    for (const m of p.models) {
      const other = owner.get(m.id);
      if (other)
        throw new Error(
          `the model "${m.id}" is offered by both "${other}" and "${p.name}"; rename one provider or drop the model from one`,
        );
      owner.set(m.id, p.name);
    }
  }
}
