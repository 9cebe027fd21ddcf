// REST response shapes that are not run data: errors and health. The error body has one owner here:
// the worker and the proxy build it with `errorBody`, and every client reads it with `apiErrorOf`.
import { z } from 'zod';

/** What went wrong, in an error answer: a stable code, words for a person, and each bad field. */
export const apiErrorDetailSchema = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(z.string()).optional(),
});
export type ApiErrorDetail = z.infer<typeof apiErrorDetailSchema>;

/** Every error the worker and the proxy return: `{ error: { code, message, issues? } }`. */
export const apiErrorSchema = z.object({ error: apiErrorDetailSchema });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** The JSON body of an error answer; `issues` is left out when there are none to name. */
export function errorBody(code: string, message: string, issues?: readonly string[]): ApiError {
  return { error: issues ? { code, message, issues: [...issues] } : { code, message } };
}

/** The error in a response body, or null when the body is not an error answer (a proxy page, HTML, nothing). */
export function apiErrorOf(body: unknown): ApiErrorDetail | null {
  const parsed = apiErrorSchema.safeParse(body);
  return parsed.success ? parsed.data.error : null;
}

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
