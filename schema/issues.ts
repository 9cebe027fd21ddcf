// Turns zod issues into sentences a person can act on: "endLevel: must be at least startLevel".
import type { z } from 'zod';

/** One issue per entry, each as "path: message" (the path is "(root)" for the whole value). */
export function issueList(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
}

/** All issues in one line, for error messages and logs. */
export function describeIssues(error: z.ZodError): string {
  return issueList(error).join('; ');
}
