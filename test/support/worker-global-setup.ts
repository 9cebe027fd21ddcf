// Runs in Node before the worker tests: the real range and proxy, and in front of them a scripted
// fake proxy (test/support/fake-proxy.ts) whose URL the worker gets as PROXY_URL.
import type { TestProject } from 'vitest/node';
import { startProxy } from '../../ssh-proxy/server.ts';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { startFakeOpenAi, textReply, toolCall } from './fake-openai.ts';
import { player } from './fake-player.ts';
import { startFakeProxy } from './fake-proxy.ts';
import { startLoopbackServices } from './loopback-services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    proxyUrl: string;
    proxySecret: string;
    openaiUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // The real proxy plays "fake-model" against a fake OpenAI endpoint that runs a new command each turn.
  const openai = await startFakeOpenAi();
  openai.respond((request, n) =>
    request.tools
      ? toolCall('run_command', { command: `ls -la; echo turn ${n}` }, 'looking around')
      : textReply('look closer'),
  );
  // Two more providers on two more fake endpoints that stream, for batches, the queue and the board:
  // "alpha" plays level 0 at once, "slow" takes its time (and runs at most 2 at once), "thinker"
  // writes its thinking piece by piece.
  const alpha = await startFakeOpenAi();
  alpha.respond((request, n) => {
    if (request.model === 'slow') return player({ delayMs: 400 })(request, n);
    if (request.model === 'thinker')
      return player({ think: () => 'Thinking it over, one piece at a time, before acting.', pieceDelayMs: 120 })(
        request,
        n,
      );
    return player()(request, n);
  });
  const beta = await startFakeOpenAi();
  beta.respond(player());
  const providers = {
    providers: [
      {
        name: 'alpha',
        baseUrl: alpha.baseUrl,
        apiKeyEnv: 'ALPHA_KEY',
        maxConcurrent: 8,
        models: ['solver', 'thinker'],
      },
      { name: 'slow', baseUrl: alpha.baseUrl, maxConcurrent: 2, models: ['slow'] },
      {
        name: 'beta',
        baseUrl: beta.baseUrl,
        apiKeyEnv: 'BETA_KEY',
        models: [{ name: 'solver', price: { input: 1, output: 2 } }],
      },
    ],
  };
  const services = await startLoopbackServices({
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_API_KEY: 'sk-worker-tests',
    OPENAI_MODELS: 'fake-model',
    PROVIDERS: JSON.stringify(providers),
    ALPHA_KEY: 'sk-alpha',
    BETA_KEY: 'sk-beta',
  });
  // A second real proxy offers a model it cannot run (no key), for the worker's refusal of it.
  const keyless = await startProxy(
    readProxySettings({
      PROXY_SECRET: services.proxySecret,
      PROXY_PORT: '0',
      PRACTICE_PORT: String(services.range.port),
      OPENAI_MODELS: 'keyless-model',
    }),
  );
  const fake = await startFakeProxy(services.proxyUrl, [`http://127.0.0.1:${keyless.port}`]);
  project.provide('proxyUrl', fake.url);
  project.provide('proxySecret', services.proxySecret);
  project.provide('openaiUrl', openai.baseUrl.replace(/\/v1$/, ''));
  return async () => {
    await fake.close();
    await keyless.close();
    await services.close();
    await openai.close();
    await alpha.close();
    await beta.close();
  };
}
