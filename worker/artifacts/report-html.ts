// report.html: the run as ONE file a browser opens offline — summary, per-level outcomes, transcript,
// timeline and terminal replay — with a CSP that lets it load nothing. Built from what the archive
// already has (the shown events, terminal.cast) through the same folds summary.json and the API use.
import { LIMIT_TEXT, RUN_CAPS, formatCapValue } from '../../schema/budget.ts';
import type { RunCap } from '../../schema/budget.ts';
import { LEVEL_OUTCOMES, OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { buildTimeline } from '../../schema/timeline.ts';
import type { Span } from '../../schema/timeline.ts';
import { REPORT_CSP, dollars, duration, esc, scriptJson } from './report-markup.ts';
import { REPLAY_OPEN, replayClose } from './report-player.ts';
import { timelineSection } from './report-timeline.ts';
import { transcriptSection } from './report-transcript.ts';
import { runSummaryFile } from './run-figures.ts';

export type ReportInput = {
  run: RunSummary;
  /** The events as the archive shows them: redacted by shownEvents unless secrets were asked for. */
  events: readonly RunEvent[];
  /** terminal.cast as the archive holds it (worker/artifacts/terminal-cast.ts). */
  cast: string;
  secrets: 'included' | 'redacted';
  /** When the file was made (ISO); a parameter so the builder stays pure. */
  generatedAt: string;
};

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 1.5rem;
  color:#1d2127;background:#fff}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.15rem;border-bottom:1px solid #ccd;margin-top:1.6rem}
h4{margin:.8rem 0 .2rem}table{border-collapse:collapse}
th,td{padding:.2rem .6rem;border-bottom:1px solid #e3e5ea;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem}dl.summary dt{color:#555}
dl.summary dd{margin:0}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f6f8;padding:.4rem .6rem;margin:.3rem 0}
pre.command{background:#e9eef7;font-weight:600}.stderr{color:#a02a22}
.note{color:#666;font-size:.85em;margin:.1rem 0 .5rem}
blockquote{margin:.3rem 0;padding:.2rem .8rem;border-left:3px solid #aab;white-space:pre-wrap;color:#333}
details.level{border:1px solid #dde;border-radius:4px;padding:.3rem .7rem;margin:.4rem 0}
details.level>summary{cursor:pointer;font-weight:600}
.failed,.error{color:#a02a22}.solved,.found{color:#2d6a36}.paused,.person{color:#6a3f96}
td.outcome-not_solved{color:#a02a22}td.outcome-solved_alone{color:#2d6a36}.secrets{color:#a02a22;font-weight:600}
pre.screen{background:#111;color:#ddd;height:28em;overflow:auto;font:12px/1.3 ui-monospace,monospace}
.player-controls{display:flex;gap:.6rem;align-items:center}#replay-position{flex:1}
`;

const dd = (label: string, value: string) => `<dt>${label}</dt><dd>${value}</dd>`;

/** The summary section: the run's figures as summary.json reads them. */
function summarySection(run: RunSummary, s: ReturnType<typeof runSummaryFile>): string {
  const caps = RUN_CAPS.flatMap((cap: RunCap) => {
    const value = (s.caps as Partial<Record<RunCap, number>>)[cap];
    return value === undefined ? [] : [`${esc(LIMIT_TEXT[cap])}: ${esc(formatCapValue(cap, value))}`];
  });
  const outcomes = LEVEL_OUTCOMES.filter((o) => s.levels.outcomes[o] > 0)
    .map((o) => `${s.levels.outcomes[o]} ${esc(OUTCOME_TEXT[o].label)}`)
    .join(', ');
  const pauses = Object.entries(s.pausesByReason)
    .map(([reason, n]) => `${n} ${esc(reason.replace(/_/g, ' '))}`)
    .join(', ');
  const ended = s.limitReason ? ` (ended: ${esc(LIMIT_TEXT[s.limitReason])})` : '';
  return (
    '<section id="summary"><h2>Summary</h2><dl class="summary">' +
    dd('Run', `<code>${esc(run.id)}</code>`) +
    dd('Model', `<span data-field="model">${esc(s.model)}</span>`) +
    dd('Target', esc(s.target)) +
    dd('Levels asked', `${s.levels.asked.from}–${s.levels.asked.to}`) +
    dd('Status', `<span data-field="status">${esc(s.status)}</span>${ended}`) +
    dd(
      'Levels solved',
      `<span data-field="solved">${s.levels.solved}</span> of ${s.levels.attempted} attempted: ` +
        `${s.levels.solvedAlone} alone, ${s.levels.solvedWithHelp} with help`,
    ) +
    dd('How levels ended', outcomes || 'no level started') +
    dd('Pauses', pauses || 'none') +
    dd('Attempts', `${s.attempts} (${s.retries} retries), ${s.commands} commands`) +
    dd('Time', duration(s.wallTimeMs)) +
    dd(
      'Tokens',
      `${s.tokens.prompt + s.tokens.completion} (${s.tokens.prompt} prompt, ${s.tokens.completion} completion)`,
    ) +
    dd('Cost', dollars(s.costUsd)) +
    dd('Caps', caps.join('; ') || 'none') +
    dd('Created', esc(run.createdAt)) +
    '</dl></section>'
  );
}

/** The per-level table: each level's outcome (docs/outcomes.md's words) and figures. */
function levelsSection(s: ReturnType<typeof runSummaryFile>): string {
  const rows = s.perLevel.map((l) => {
    const text = OUTCOME_TEXT[l.outcome];
    return (
      `<tr data-level="${l.level}" data-outcome="${l.outcome}">` +
      `<td class="n"><a href="#level-${l.level}" title="This level's transcript">${l.level}</a></td>` +
      `<td class="outcome-${l.outcome}" title="${esc(text.means)}">${esc(text.label)}</td>` +
      `<td class="n">${l.attempts}</td><td class="n">${l.commands}</td><td class="n">${duration(l.durationMs)}</td>` +
      `<td class="n">${l.tokens.prompt + l.tokens.completion}</td><td class="n">${dollars(l.costUsd)}</td></tr>`
    );
  });
  return (
    '<section id="levels"><h2>Levels</h2><table><thead><tr><th>Level</th><th>How it ended</th><th>Attempts</th>' +
    '<th>Commands</th><th>Time</th><th>Tokens</th><th>Cost</th></tr></thead>' +
    `<tbody>${rows.join('') || '<tr><td colspan="7">No level was started.</td></tr>'}</tbody></table></section>`
  );
}

/** What report.html's parts before the transcript are made of: the run's figures and timeline, folded whole. */
export type ReportHeadInput = {
  run: RunSummary;
  summary: ReturnType<typeof runSummaryFile>;
  /** The level spans (schema/timeline.ts); the section draws levels, attempts and waits. */
  timeline: readonly Span[];
  secrets: ReportInput['secrets'];
  generatedAt: string;
};

/** report.html up to its transcript: the head, the summary, the levels and the timeline. */
export function reportHead(input: ReportHeadInput): string {
  const { run, summary: s } = input;
  const secrets =
    input.secrets === 'included'
      ? '<p class="secrets">This file includes the passwords and keys the run found.</p>'
      : '<p class="note">Passwords and private keys are replaced by placeholders.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bandit-runner report: ${esc(run.id)} (${esc(run.config.model)})</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>bandit-runner run <code>${esc(run.id)}</code></h1>
<p class="note">Made ${esc(input.generatedAt)}. One file: it loads nothing from the network.</p>${secrets}</header>
${summarySection(run, s)}
${levelsSection(s)}
${timelineSection(input.timeline)}
`;
}

/** report.html after the transcript section, up to the recording's data (the replay section's opening). */
export const REPORT_BEFORE_CAST = `\n${REPLAY_OPEN}`;

/** report.html after the recording's data. */
export const reportAfterCast = (): string => `${replayClose()}\n</body>\n</html>\n`;

/** The whole report.html; pure, so the archive and GET /api/runs/:id/report.html give the same file. */
export function reportHtml(input: ReportInput): string {
  const { run, events } = input;
  const head = reportHead({
    run,
    summary: runSummaryFile(run, events),
    timeline: buildTimeline(events),
    secrets: input.secrets,
    generatedAt: input.generatedAt,
  });
  const transcript = transcriptSection(run.config.target, events);
  return `${head}${transcript}${REPORT_BEFORE_CAST}${scriptJson(input.cast)}${reportAfterCast()}`;
}
