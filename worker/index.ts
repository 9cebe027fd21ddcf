// Worker entry: the API (static assets are served by Workers assets before this runs) and the
// RunSession Durable Object class.
import { app } from './app.ts';

export { RunSession } from './run-session/run-session.ts';
export { RunQueue } from './run-queue.ts';

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
