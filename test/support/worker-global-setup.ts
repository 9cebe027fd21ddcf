// Runs in Node before the worker tests: the real range and proxy, and in front of them a scripted
// fake proxy (test/support/fake-proxy.ts) whose URL the worker gets as PROXY_URL.
import type { TestProject } from 'vitest/node';
import { startProxy } from '../../ssh-proxy/server.ts';
import { readProxySettings } from '../../ssh-proxy/settings.ts';
import { startFakeOpenAi, textReply, toolCall } from './fake-openai.ts';
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
  openai.respond((request, n) => (request.tools ? toolCall('run_command', { command: `ls -la; echo turn ${n}` }, 'looking around') : textReply('look closer')));
  const services = await startLoopbackServices({ OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-worker-tests', OPENAI_MODELS: 'fake-model' });
  // A second real proxy offers a model it cannot run (no key), for the worker's refusal of it.
  const keyless = await startProxy(readProxySettings({ PROXY_SECRET: services.proxySecret, PROXY_PORT: '0', PRACTICE_PORT: String(services.range.port), OPENAI_MODELS: 'keyless-model' }));
  const fake = await startFakeProxy(services.proxyUrl, [`http://127.0.0.1:${keyless.port}`]);
  project.provide('proxyUrl', fake.url);
  project.provide('proxySecret', services.proxySecret);
  project.provide('openaiUrl', openai.baseUrl.replace(/\/v1$/, ''));
  return async () => {
    await fake.close();
    await keyless.close();
    await services.close();
    await openai.close();
  };
}
