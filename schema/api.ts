// REST response shapes that are not run data: errors and health.
import { z } from 'zod';

/** Every error the worker returns: `{ error: { code, message, issues? } }`. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.string()).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** One component's health: ok, and in words why (or why not). */
export const componentHealthSchema = z.object({
  ok: z.boolean(),
  reason: z.string(),
  /** Something that works but that an operator should know, e.g. a proxy reached over plain http. */
  warning: z.string().optional(),
});
export type ComponentHealth = z.infer<typeof componentHealthSchema>;

/** The components GET /api/health names, in the order it checks them. */
export const HEALTH_COMPONENTS = ['worker', 'd1', 'durable_object', 'proxy', 'practice'] as const;

/** GET /api/health: 200 when every component is ok, 503 otherwise. */
export const healthSchema = z.object({
  ok: z.boolean(),
  components: z.object({
    worker: componentHealthSchema,
    d1: componentHealthSchema,
    durable_object: componentHealthSchema,
    proxy: componentHealthSchema,
    practice: componentHealthSchema,
  }),
});
export type Health = z.infer<typeof healthSchema>;
