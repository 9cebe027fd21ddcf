// Runs in Node before the worker tests: the real range and proxy, and in front of them a scripted
// fake proxy (test/support/fake-proxy.ts) whose URL the worker gets as PROXY_URL.
import type { TestProject } from 'vitest/node';
import { startFakeProxy } from './fake-proxy.ts';
import { startLoopbackServices } from './loopback-services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    proxyUrl: string;
    proxySecret: string;
  }
}

export default async function setup(project: TestProject) {
  // A model the proxy offers but cannot run (no key), for the worker's refusal of it.
  const services = await startLoopbackServices({ OPENAI_MODELS: 'keyless-model' });
  const fake = await startFakeProxy(services.proxyUrl);
  project.provide('proxyUrl', fake.url);
  project.provide('proxySecret', services.proxySecret);
  return async () => {
    await fake.close();
    await services.close();
  };
}
