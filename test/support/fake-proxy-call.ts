// What the fake proxy records about each call; shared by the Node fake and the workerd tests.
import type { ProxyRequest } from '../../schema/protocol.ts';

export type FakeProxyCall = {
  runId: string;
  step: number | null;
  state: unknown;
  patches: boolean;
  resume: ProxyRequest['resume'] | null;
  aborted: boolean;
};
