// How each level a run touched ended: the one taxonomy the board, analytics, the archive, the CLI and
// the run page all read (docs/outcomes.md). The rule is here and nowhere else; SQL reads the stored
// outcome column, and the groups it filters on are generated from the lists below.
import { z } from 'zod';
import type { SolvedBy } from './protocol.ts';

/** Every way a level can end, from the least a person did to the most, then not solved. */
export const LEVEL_OUTCOMES = [
  'solved_alone',
  'solved_by_final_attempt',
  'solved_after_more_attempts',
  'solved_with_hint',
  'solved_with_password',
  'not_solved',
] as const;
export const levelOutcomeSchema = z.enum(LEVEL_OUTCOMES);
export type LevelOutcome = z.infer<typeof levelOutcomeSchema>;

/** What a person sees for each outcome: a short label and what it means. */
export const OUTCOME_TEXT: Record<LevelOutcome, { label: string; means: string }> = {
  solved_alone: { label: 'alone', means: 'solved within the configured retries; no person acted at this level' },
  solved_by_final_attempt: {
    label: 'final attempt',
    means: 'solved by the best-effort final attempt after the retries ran out; no person acted at this level',
  },
  solved_after_more_attempts: {
    label: 'more attempts',
    means:
      'solved after a person answered a pause at this level with a bare continue (or a password that failed, or a raised budget cap)',
  },
  solved_with_hint: { label: 'hint', means: 'solved after a person gave a hint or a message at this level' },
  solved_with_password: { label: 'password', means: "proved by the person's password" },
  not_solved: { label: 'not solved', means: 'the run left or ended without proving the password' },
};

/** Outcomes where a person gave the agent something to go on: "solved with help". */
export const HELPED_OUTCOMES = ['solved_with_hint', 'solved_with_password'] as const satisfies readonly LevelOutcome[];

/** What happened at one level that decides its outcome. */
export type OutcomeFacts = {
  solved: boolean;
  solvedBy: SolvedBy | null;
  /** Pauses at this level answered with a bare continue. */
  continues: number;
  /** Pauses at this level answered with a hint. */
  hints: number;
  /** A person's messages the agent read at this level (issue 30); absent counts as none. */
  messages?: number;
  /** Pauses at this level answered with a password. */
  passwords: number;
};

/**
 * The one rule. A person's act outranks the agent's own means: the person's password (when it proved
 * the level), then a hint or a message the agent read there, then any other answer that let the agent go
 * on, then the final attempt.
 */
export function levelOutcome(facts: OutcomeFacts): LevelOutcome {
  if (!facts.solved) return 'not_solved';
  if (facts.solvedBy === 'person') return 'solved_with_password';
  if (facts.hints > 0 || (facts.messages ?? 0) > 0) return 'solved_with_hint';
  if (facts.continues > 0 || facts.passwords > 0) return 'solved_after_more_attempts';
  if (facts.solvedBy === 'final_attempt') return 'solved_by_final_attempt';
  return 'solved_alone';
}

/** True when a person gave the agent something to go on at the level. */
export const isHelped = (outcome: LevelOutcome): boolean => (HELPED_OUTCOMES as readonly string[]).includes(outcome);

/** Counts by outcome, every outcome present (zero when none). */
export type OutcomeCounts = Record<LevelOutcome, number>;
export const outcomeCountsSchema = z.object(
  Object.fromEntries(LEVEL_OUTCOMES.map((o) => [o, z.number().int().min(0)])) as Record<LevelOutcome, z.ZodNumber>,
);

/** Zero of every outcome. */
export const noOutcomes = (): OutcomeCounts => Object.fromEntries(LEVEL_OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;

/** Counts the outcomes of a list. */
export function countOutcomes(outcomes: Iterable<LevelOutcome>): OutcomeCounts {
  const counts = noOutcomes();
  for (const o of outcomes) counts[o] += 1;
  return counts;
}

/**
 * SQL over a table with an `outcome` column: one sum per outcome, aliased `o_<outcome>`, and the
 * condition for "helped". Generated from the lists above, so SQL cannot hold a rule of its own.
 */
export const outcomeSql = {
  // coalesce: a row whose outcome is not known yet (null, before it is folded again) counts as none.
  sums: LEVEL_OUTCOMES.map((o) => `coalesce(sum(outcome = '${o}'), 0) AS o_${o}`).join(', '),
  helped: `outcome IN (${HELPED_OUTCOMES.map((o) => `'${o}'`).join(', ')})`,
  alone: `outcome = 'solved_alone'`,
};

/** Reads the `o_<outcome>` sums of a row produced with `outcomeSql.sums`. */
export function outcomeCountsOf(row: Record<string, unknown>): OutcomeCounts {
  const counts = noOutcomes();
  for (const o of LEVEL_OUTCOMES) counts[o] = Number(row[`o_${o}`] ?? 0);
  return counts;
}
