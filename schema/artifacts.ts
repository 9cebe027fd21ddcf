// What leaves the tool: the archive's query, and GET /api/runs/:id/verification — a verification run's
// verdict per level of its original, and the reports of the runs that verified a run. Shared by the
// worker, the web app and the archive.
import { z } from 'zod';
import { verifyVerdictSchema } from './protocol.ts';
import { runIdSchema, runStatusSchema } from './run.ts';

export const verificationReportSchema = z.object({
  runId: runIdSchema,
  of: runIdSchema,
  status: runStatusSchema,
  /** Levels the plan held; each in `levels` has its verdict, the rest were not reached. */
  planned: z.array(z.number().int().min(0)),
  levels: z.array(z.object({ level: z.number().int().min(0), verdict: verifyVerdictSchema, detail: z.string() })),
  reproduced: z.number().int().min(0),
  drifted: z.number().int().min(0),
  failed: z.number().int().min(0),
  /** Every planned level reproduced. */
  ok: z.boolean(),
});
export type VerificationReport = z.infer<typeof verificationReportSchema>;

export const verificationResponseSchema = z.object({
  /** This run's own report, when it is a verification run. */
  report: verificationReportSchema.nullable(),
  verifiedBy: z.array(verificationReportSchema),
});
export type VerificationResponse = z.infer<typeof verificationResponseSchema>;

/** GET /api/runs/:id/artifacts and /terminal.cast: ?secrets=include puts the run's passwords and keys in. */
export const artifactsQuerySchema = z.strictObject({
  secrets: z
    .enum(['redacted', 'include'], { error: 'must be "redacted" (the default) or "include"' })
    .default('redacted'),
});
