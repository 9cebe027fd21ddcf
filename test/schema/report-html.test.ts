// report.html built from a log full of hostile text: every run text stays text (no tag, no attribute,
// no control of its own), every level the run touched has its row, its transcript block and its bar,
// the redacted file holds no password the run found (the secrets-included one does), and the
// recording embedded for the player parses back to the archive's terminal.cast exactly.
import { describe, expect, it } from 'vitest';
import { REPORT_CSP, scriptJson } from '../../worker/artifacts/report-markup.ts';
import { HOSTILE_RUN_ID, PW1, hostileArchive } from '../support/hostile-run.ts';
import { MARK, forbiddenIn } from '../support/hostile-text.ts';

async function build(includeSecrets: boolean) {
  const { files, manifest } = await hostileArchive({ includeSecrets });
  return { html: files.get('report.html') ?? '', files, manifest };
}

/** The tags the builder writes; run text can add none. */
const TAGS = new Set(
  (
    'html head meta title style body header h1 h2 h4 p code section dl dt dd span table thead tbody tr th td ' +
    'details summary pre blockquote ul li svg defs pattern rect g text script div button label select option a ' +
    'input noscript'
  ).split(' '),
);
/** Attributes the builder writes. */
const ATTRIBUTES = new RegExp(
  '^(lang|charset|http-equiv|content|name|class|id|title|type|href|data-[a-z]+|role|aria-label|viewBox|width|height|' +
    'font-size|x|y|fill|fill-opacity|text-anchor|patternUnits|patternTransform|colspan|min|max|step|value|disabled)$',
);

/** Every tag in the file, with its attributes' names. */
function tagsOf(html: string): { name: string; attributes: string[] }[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => ({
    name: m[1]!.toLowerCase(),
    attributes: [...(m[2] ?? '').matchAll(/\s([^\s=/>]+)(?:="[^"]*")?/g)].map((a) => a[1]!),
  }));
}

/** The JSON text of the `<script type="application/json">` holding the recording. */
const castJson = (html: string) => /<script type="application\/json" id="cast-data">([^<]*)<\/script>/.exec(html)?.[1];

describe('report.html', () => {
  it('keeps hostile run text as text: its own tags and attributes only, two scripts, no control', async () => {
    const { html } = await build(true);
    const tags = tagsOf(html);
    expect(tags.filter((t) => !TAGS.has(t.name)).map((t) => t.name)).toEqual([]);
    const attributes = tags.flatMap((t) => t.attributes);
    expect(attributes.filter((a) => !ATTRIBUTES.test(a))).toEqual([]);
    expect(tags.filter((t) => t.name === 'script')).toHaveLength(4); // two opened, two closed
    expect(forbiddenIn(html)).toEqual([]);
    expect(html).not.toContain('\x1b');
    // The payloads are there, shown: the HTML one as text, the escapes as caret notation.
    expect(html).toContain(`&lt;script&gt;alert(&#39;${MARK}&#39;)&lt;/script&gt;`);
    expect(html).toContain('^[]52;c;');
    expect(html).toContain('&lt;U+202E&gt;');
    // The CSP is the file's first word on loading: nothing but itself.
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // Its only links are to its own parts.
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['#level-0', '#level-1']);
    // The 1 MB line is cut in the transcript; the whole file stays a fraction of its log.
    expect(html.length).toBeLessThan(3 * 1024 * 1024);
  });

  it('has a row, a transcript block and a timeline bar for every level the run touched', async () => {
    const { html } = await build(false);
    expect(html).toContain(`<code>${HOSTILE_RUN_ID}</code>`);
    expect(html).toContain('<span data-field="model">baseline</span>');
    expect(html).toMatch(/<tr data-level="0" data-outcome="solved_alone">.*?>alone</);
    expect(html).toContain('How levels ended</dt><dd>1 alone, 1 not solved</dd>');
    expect(html).toContain('Pauses</dt><dd>1 max retries</dd>');
    expect(html).toMatch(/<tr data-level="1" data-outcome="not_solved">.*?>not solved</);
    for (const level of [0, 1]) {
      expect(html).toContain(`<details class="level" data-level="${level}">`);
      expect(html).toContain(`<g data-level="${level}">`);
    }
    expect(html.match(/class="level-bar"/g)).toHaveLength(2);
    expect(html.match(/<details class="level"/g)).toHaveLength(2);
    // A command the run ran, escaped as text.
    expect(html).toContain('<pre class="command">$ echo &quot;$(touch &quot;$REPLAY_MARK&quot;)&quot;</pre>');
  });

  it('holds no password the run found unless secrets were asked for', async () => {
    const redacted = await build(false);
    const included = await build(true);
    expect(redacted.html).not.toContain(PW1);
    expect(redacted.html).toContain('[REDACTED:bandit1-password]');
    expect(redacted.html).toContain('Passwords and private keys are replaced by placeholders.');
    expect(included.html).toContain(PW1);
    expect(included.html).toContain('This file includes the passwords and keys the run found.');
    // Listed in the manifest with its sha256 like every file.
    const listed = (redacted.manifest.files as { path: string; sha256: string }[]).find(
      (f) => f.path === 'report.html',
    );
    expect(listed?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('embeds terminal.cast as JSON that parses back exactly and cannot close its script tag', async () => {
    for (const includeSecrets of [false, true]) {
      const { html, files } = await build(includeSecrets);
      const json = castJson(html);
      expect(json).toBeDefined();
      expect(JSON.parse(json!)).toBe(files.get('terminal.cast'));
    }
    const nasty = '</script><!-- <script>alert(1)</script> & \u2028\u2029 \u202e';
    const embedded = scriptJson(nasty);
    expect(embedded).not.toMatch(/[<>&\u2028\u2029\u202e]/);
    expect(JSON.parse(embedded)).toBe(nasty);
  });
});
