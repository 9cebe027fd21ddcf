// Turns an error from the openai SDK into a class, whether to retry, and a message that says what
// to fix. A person reads this message in the pause dialog.
import OpenAI from 'openai';
import type { LlmErrorClass } from '../../schema/protocol.ts';
import type { Provider } from './providers.ts';
import { stateText } from '../agent/state-text.ts';

export type ClassifiedError = {
  errorClass: LlmErrorClass | 'aborted';
  retryable: boolean;
  message: string;
  retryAfterMs?: number;
};

const CONTEXT_WORDS = /context[_ ]length|maximum context|too many tokens|context window|prompt is too long/i;

export function classifyLlmError(
  err: unknown,
  model: string,
  provider: Pick<Provider, 'name' | 'baseUrl' | 'keyEnv'>,
): ClassifiedError {
  const { baseUrl } = provider;
  // The setting a person edits: the OPENAI_* variables for the provider they define, else the providers file.
  const legacy = provider.keyEnv === 'OPENAI_API_KEY' && provider.name === 'openai';
  const urlSetting = legacy ? 'OPENAI_BASE_URL' : `the baseUrl of provider "${provider.name}"`;
  const keySetting = provider.keyEnv ?? `an apiKeyEnv for provider "${provider.name}"`;
  const modelsSetting = legacy ? 'OPENAI_MODELS' : `the models of provider "${provider.name}"`;
  if (err instanceof OpenAI.APIUserAbortError)
    return { errorClass: 'aborted', retryable: false, message: 'the call was aborted' };
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return {
      errorClass: 'timeout',
      retryable: true,
      message: `${model} did not answer in time; check ${baseUrl} or raise OPENAI_TIMEOUT_MS`,
    };
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return {
      errorClass: 'server_error',
      retryable: true,
      message: `cannot reach ${baseUrl}; check ${urlSetting} and that the endpoint is up`,
    };
  }
  if (err instanceof OpenAI.AuthenticationError || err instanceof OpenAI.PermissionDeniedError) {
    return {
      errorClass: 'bad_key',
      retryable: false,
      message: `${baseUrl} refused the API key (${err.status}); set a valid ${keySetting} for the proxy`,
    };
  }
  if (err instanceof OpenAI.RateLimitError) {
    if (err.code === 'insufficient_quota') {
      return {
        errorClass: 'quota_exceeded',
        retryable: false,
        message: `the account behind ${keySetting} is out of quota; add credit or use another key`,
      };
    }
    return {
      errorClass: 'rate_limited',
      retryable: true,
      message: `${baseUrl} kept rate-limiting ${model}; wait a minute, then continue`,
      ...retryAfter(err.headers),
    };
  }
  if (err instanceof OpenAI.APIError && (err.code === 'context_length_exceeded' || CONTEXT_WORDS.test(err.message))) {
    return {
      errorClass: 'context_too_long',
      retryable: false,
      message: `the conversation is too long for ${model}; lower the run's budget or pick a model with a longer context`,
    };
  }
  if (err instanceof OpenAI.NotFoundError) {
    return {
      errorClass: 'unknown_model',
      retryable: false,
      message: `${baseUrl} does not know the model "${model}"; check the name in ${modelsSetting}`,
    };
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number' && err.status >= 500) {
    return {
      errorClass: 'server_error',
      retryable: true,
      message: `${baseUrl} kept failing (HTTP ${err.status}); try again later or use another endpoint`,
    };
  }
  if (err instanceof SyntaxError) {
    return {
      errorClass: 'malformed_response',
      retryable: true,
      message: `${baseUrl} answered with a body that is not JSON; is ${urlSetting} an OpenAI-compatible endpoint?`,
    };
  }
  if (err instanceof OpenAI.APIError) {
    return { errorClass: 'unknown', retryable: false, message: `${baseUrl} refused the request: ${said(err.message)}` };
  }
  return {
    errorClass: 'unknown',
    retryable: false,
    message: `the model call failed: ${said(err instanceof Error ? err.message : String(err))}`,
  };
}

/** What an endpoint said, as a person reads it: visible, and short (an endpoint may answer megabytes). */
const said = (text: string): string => stateText(text, 1_000);

/** Honours Retry-After (seconds) and retry-after-ms, when the endpoint sends them. */
function retryAfter(headers: Headers | undefined): { retryAfterMs?: number } {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return { retryAfterMs: ms };
  const seconds = Number(headers?.get('retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return { retryAfterMs: seconds * 1000 };
  return {};
}
