// Turns zod issues into sentences a person can act on: "endLevel: must be at least startLevel".
import type { z } from 'zod';

/** One issue per entry, each as "path: message" (the path is "(root)" for the whole value). */
export function issueList(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${plainMessage(issue)}`);
}

/** zod says "expected number, received undefined" for a missing field; people say "is required". */
function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message))
    return `is required (${issue.expected})`;
  return issue.message;
}

/** All issues in one line, for error messages and logs. */
export function describeIssues(error: z.ZodError): string {
  return issueList(error).join('; ');
}
