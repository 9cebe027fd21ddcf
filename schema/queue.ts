// GET /api/queue: the runs holding a slot and the line behind them.
import { z } from 'zod';
import { hostingUsageSchema } from './hosting.ts';
import { runIdSchema } from './run.ts';

export const queueMemberSchema = z.object({
  runId: runIdSchema,
  /** The provider whose limit the run counts against ("baseline" has none). */
  provider: z.string(),
  limit: z.number().int().nullable(),
  state: z.enum(['waiting', 'running', 'idle']),
  /** 1 is next; null unless waiting. */
  position: z.number().int().min(1).nullable(),
  /** Epoch ms: when it joined the line, or when it got its slot. */
  since: z.number(),
  /** The batch it belongs to, if any. Additive. */
  batchId: z.string().nullable().optional(),
});
export type QueueMember = z.infer<typeof queueMemberSchema>;

export const queueStatusSchema = z.object({
  maxRunning: z.number().int(),
  running: z.array(queueMemberSchema),
  waiting: z.array(queueMemberSchema),
  /** What Cloudflare bills for the queue's object, counted in memory since it last started (issue 34). Additive. */
  hosting: hostingUsageSchema.optional(),
});
export type QueueStatus = z.infer<typeof queueStatusSchema>;
