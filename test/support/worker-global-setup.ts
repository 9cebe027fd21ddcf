// Runs in Node before the worker tests: the real range and proxy, whose URL the worker gets as PROXY_URL.
import type { TestProject } from 'vitest/node';
import { startLoopbackServices } from './loopback-services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    proxyUrl: string;
    proxySecret: string;
  }
}

export default async function setup(project: TestProject) {
  const services = await startLoopbackServices();
  project.provide('proxyUrl', services.proxyUrl);
  project.provide('proxySecret', services.proxySecret);
  return () => services.close();
}
