// Writes docs/troubleshooting.md from the one failure taxonomy (schema/failures.ts), so the page and
// the cards the app shows cannot drift apart. `npm run docs:troubleshooting`; a test checks the page.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAILURE_CLASSES } from '../schema/failures.ts';
import type { FailureCategory } from '../schema/failures.ts';

const CATEGORY_TITLES: Record<FailureCategory, string> = {
  model: 'The model',
  ssh: 'SSH',
  proxy: 'The proxy',
  agent: 'The agent',
  person: 'Waiting for you',
  configuration: 'Configuration',
  platform: 'bandit-runner itself',
};

/** The page's text. */
export function troubleshootingDoc(): string {
  const lines = [
    '# Troubleshooting',
    '',
    '<!-- Generated from schema/failures.ts by `npm run docs:troubleshooting`; edit the taxonomy, not this page. -->',
    '',
    'When a run pauses or ends badly, `GET /api/runs/:id/diagnosis` (and the run page) gives a card: what',
    "happened, the evidence from the run's record (the error, the model call, the last command and its",
    'stderr), and the fix. Every card comes from one of the classes below.',
    '',
  ];
  const classes = Object.entries(FAILURE_CLASSES);
  for (const category of Object.keys(CATEGORY_TITLES) as FailureCategory[]) {
    const inCategory = classes.filter(([, info]) => info.category === category);
    if (inCategory.length === 0) continue;
    lines.push(`## ${CATEGORY_TITLES[category]}`, '');
    for (const [name, info] of inCategory) {
      lines.push(`### ${info.title}`, '', `\`${name}\`. ${info.meaning}`, '', `**Fix:** ${info.fix}`, '');
    }
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const path = join(import.meta.dirname, '../docs/troubleshooting.md');
  writeFileSync(path, troubleshootingDoc());
  console.log(`wrote ${path}`);
}
