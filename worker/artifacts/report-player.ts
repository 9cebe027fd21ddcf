// report.html's terminal replay: the archive's terminal.cast (asciicast v2) embedded as JSON, and a
// small player that needs no network: play/pause, speed and a position slider. It draws output as text
// into a <pre> (textContent, never markup), obeying CR, LF, backspace, erase-line and clear-screen and
// dropping every other escape; no colour; 5,000-10,000 lines of scrollback. Also the page's one other
// bit of script: opening the transcript block a link points into.
import { scriptJson } from './report-markup.ts';

/** The player, as the page's one inline script. Plain ES2017, so any browser of the last years runs it. */
export const REPORT_PLAYER_SCRIPT = String.raw`(function () {
  var data = document.getElementById('cast-data');
  var screen = document.getElementById('replay-screen');
  var play = document.getElementById('replay-play');
  var speed = document.getElementById('replay-speed');
  var pos = document.getElementById('replay-position');
  var clock = document.getElementById('replay-clock');
  if (!data || !screen || !play || !speed || !pos || !clock) return;
  var lines = String(JSON.parse(data.textContent || '""')).split('\n').filter(Boolean);
  var header = {};
  try { header = JSON.parse(lines[0] || '{}'); } catch (e) { header = {}; }
  var limit = typeof header.idle_time_limit === 'number' ? header.idle_time_limit : Infinity;
  var frames = [];
  var t = 0;
  var prev = 0;
  for (var i = 1; i < lines.length; i++) {
    var f;
    try { f = JSON.parse(lines[i]); } catch (e) { continue; }
    if (!Array.isArray(f) || typeof f[0] !== 'number') continue;
    t += Math.max(0, Math.min(f[0] - prev, limit));
    prev = f[0];
    if (f[1] === 'o') frames.push([t, String(f[2])]);
  }
  var total = frames.length ? frames[frames.length - 1][0] : 0;
  pos.max = String(total);
  var rows, row, col, next, at, timer = null, last = 0, SCROLLBACK = 5000;
  // An escape sequence: CSI, OSC (to BEL or ST), DCS/SOS/PM/APC (to ST), any other ESC + byte, an 8-bit CSI.
  var SEQ = new RegExp('\x1b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|[PX^_][^\x1b]*(?:\x1b\\\\)?' +
    '|[ -/]*[0-~]?)|\x9b[0-?]*[ -/]*[@-~]', 'g');
  function reset() { rows = ['']; row = 0; col = 0; }
  // Lines kept above the cursor, as a terminal's scrollback: drawing stays quick on a long run.
  function newline() {
    row++;
    if (rows.length <= row) rows.push('');
    // Trimmed in batches, so a long run costs one splice per SCROLLBACK lines, not one per line.
    if (rows.length > 2 * SCROLLBACK) { rows.splice(0, rows.length - SCROLLBACK); row = rows.length - 1; }
  }
  function put(run) {
    var line = rows[row];
    while (line.length < col) line += ' ';
    rows[row] = line.slice(0, col) + run + line.slice(col + run.length);
    col += run.length;
  }
  function control(seq) {
    if (seq === '\x1bc' || seq === '\x1b[2J' || seq === '\x1b[3J') reset();
    else if (/^\x1b\[[02]?K$/.test(seq)) rows[row] = rows[row].slice(0, col);
  }
  function write(text) {
    var parts = text.split(SEQ);
    var seqs = text.match(SEQ) || [];
    for (var p = 0; p < parts.length; p++) {
      // Printable runs are written whole; of the controls only CR, LF, backspace and tab act.
      var pieces = parts[p].replace(/[\x00-\x07\x0b\x0c\x0e-\x1f\x7f-\x9f]/g, '').split(/([\r\n\b\t])/);
      for (var k = 0; k < pieces.length; k++) {
        var c = pieces[k];
        if (c === '\r') col = 0;
        else if (c === '\n') newline();
        else if (c === '\b') col = Math.max(0, col - 1);
        else if (c === '\t') put('        '.slice(col % 8));
        else if (c) put(c);
      }
      if (p < seqs.length) control(seqs[p]);
    }
  }
  function draw() {
    screen.textContent = rows.join('\n');
    screen.scrollTop = screen.scrollHeight;
    pos.value = String(at);
    clock.textContent = at.toFixed(1) + ' s / ' + total.toFixed(1) + ' s';
  }
  function advance(to) {
    while (next < frames.length && frames[next][0] <= to) write(frames[next++][1]);
    at = Math.min(to, total);
    draw();
  }
  function seek(to) { reset(); next = 0; advance(to); }
  function stop() { if (timer !== null) clearInterval(timer); timer = null; play.textContent = 'Play'; }
  function tick() {
    var now = Date.now();
    advance(at + ((now - last) / 1000) * Number(speed.value || '1'));
    last = now;
    if (at >= total) stop();
  }
  play.addEventListener('click', function () {
    if (timer !== null) return stop();
    if (at >= total) seek(0);
    last = Date.now();
    timer = setInterval(tick, 50);
    play.textContent = 'Pause';
  });
  pos.addEventListener('input', function () { seek(Number(pos.value)); });
  seek(0);
  play.disabled = false;
})();`;

/** Opens the transcript block a link (the levels table's `#level-N`) points into; without script it scrolls there. */
const REVEAL_SCRIPT = `(function () {
  function reveal() {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    var block = target && target.parentElement;
    if (block && block.tagName === 'DETAILS') block.open = true;
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
`;

/** The replay section up to the recording's data: the data is a JSON string inside the script tag this opens. */
export const REPLAY_OPEN =
  '<section id="replay"><h2>Terminal replay</h2><script type="application/json" id="cast-data">';

/** The replay section after the recording's data: the player's controls and screen, and the player. */
export function replayClose(): string {
  const speeds = [1, 2, 5, 20, 100].map((s) => `<option value="${s}">${s}×</option>`).join('');
  return (
    '</script>' +
    '<div class="player-controls"><button type="button" id="replay-play" disabled>Play</button> ' +
    `<label>speed <select id="replay-speed">${speeds}</select></label> ` +
    '<input type="range" id="replay-position" min="0" max="0" step="0.01" value="0" aria-label="Position"> ' +
    '<span id="replay-clock"></span></div>' +
    '<pre id="replay-screen" class="screen"></pre>' +
    '<noscript><p>The replay needs JavaScript; everything else in this file works without it. ' +
    'The recording is terminal.cast in the archive (asciinema play terminal.cast).</p></noscript>' +
    `<script>${REVEAL_SCRIPT}${REPORT_PLAYER_SCRIPT}</script></section>`
  );
}

/**
 * A piece of the recording as it stands inside the data's JSON string: the pieces of a recording, each
 * whole lines, joined between two quotes are scriptJson(recording) (each character is escaped alone).
 */
export const castDataPiece = (piece: string): string => scriptJson(piece).slice(1, -1);

/** The replay section: the recording as JSON data, the player's controls and screen, and the player. */
export function replaySection(cast: string): string {
  return `${REPLAY_OPEN}${scriptJson(cast)}${replayClose()}`;
}
