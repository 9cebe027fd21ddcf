// replay/: the commands that solved each level as shell scripts a person runs against the target with
// OpenSSH's own client. A level's password comes from BANDIT<N>_PASSWORD or a prompt, never from the
// script; the script holds only the sha256 of the password the run proved, to tell "reproduced" from
// "drifted". replay.sh runs the levels in a row, each proving the next one's password.
import type { RunEvent } from '../../schema/protocol.ts';
import type { Target } from '../../schema/run.ts';
import type { SolvedLevel } from './solved-levels.ts';
import { commandsWithout, sha256Hex } from './solved-levels.ts';

/** Where each target listens when the run's own address is not known. */
const DEFAULT_ADDRESS: Record<Target, { host: string; port: number }> = {
  practice: { host: '127.0.0.1', port: 2220 },
  bandit: { host: 'bandit.labs.overthewire.org', port: 2220 },
};

/**
 * The address the run played (`host:port` as the manifest states it), when it is a plain host name or
 * IP and a port: it is written into the scripts, so anything else falls back to the target's default.
 */
export function replayAddress(target: Target, address: string | null): { host: string; port: number } {
  const m = /^([A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\]):([0-9]{1,5})$/.exec(address ?? '');
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65_535) return DEFAULT_ADDRESS[target];
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/** The address a run's log says it played (its last `level_started`); null for logs older than the field. */
export function playedAddress(events: readonly RunEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'level_started' && event.address !== undefined) return event.address;
  }
  return null;
}

/** A shell word that is `text` exactly. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

const pad = (level: number): string => String(level).padStart(2, '0');

const LIB = (
  host: string,
  port: number,
) => `# Shared by the level scripts: one exec with OpenSSH's own client, and the password-shaped text an
# output shows (as it is, ROT13, base64, or an xxd dump of gzip/bzip2/tar layers, as the agent reads it).
# BANDIT_HOST and BANDIT_PORT point at the target; the defaults are where the run played.
BANDIT_HOST="\${BANDIT_HOST:-${host}}"
BANDIT_PORT="\${BANDIT_PORT:-${port}}"
replay_dir="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The password reaches ssh through SSH_ASKPASS from this process's environment: never a file, never argv.
askpass="$work/askpass"
printf '#!/bin/sh\\nprintf "%%s\\\\n" "$REPLAY_SSH_PASSWORD"\\n' > "$askpass"
chmod 700 "$askpass"

# bandit_ssh LEVEL PASSWORD COMMAND: runs COMMAND as bandit<LEVEL>.
bandit_ssh() {
  local level=$1 password=$2
  shift 2
  REPLAY_SSH_PASSWORD="$password" SSH_ASKPASS="$askpass" SSH_ASKPASS_REQUIRE=force DISPLAY="\${DISPLAY:-:0}" \\
    ssh -p "$BANDIT_PORT" -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile="$replay_dir/known_hosts" \\
      -o LogLevel=ERROR -o PubkeyAuthentication=no -o PreferredAuthentications=keyboard-interactive,password \\
      -o NumberOfPasswordPrompts=1 -o ConnectTimeout=15 "bandit$level@$BANDIT_HOST" -- "$@" < /dev/null
}

# level_password LEVEL: $BANDIT<LEVEL>_PASSWORD, else a prompt (bandit0's is the game's public one).
level_password() {
  local var="BANDIT$1_PASSWORD" answer
  if [ -n "\${!var:-}" ]; then printf '%s' "\${!var}"; return; fi
  if [ "$1" = 0 ]; then printf 'bandit0'; return; fi
  if [ -r /dev/tty ] && [ -t 0 ]; then
    read -rsp "bandit$1's password: " answer < /dev/tty
    echo >&2
    printf '%s' "$answer"
    return
  fi
  echo "set $var to bandit$1's password, or run this from a terminal to be asked" >&2
  exit 2
}

# shown: what the target printed, with every escape and control a terminal would obey made visible
# (ESC as ^[, BEL ^G, CR ^M, NUL ^@, other C0 ?, C1 and bidi controls as <C1> and <bidi>); the
# rules of schema/terminal-text.ts, as far as sed can say them.
shown() {
  LC_ALL=C sed -e 's/\\x1b/^[/g' -e 's/\\x07/^G/g' -e 's/\\r/^M/g' -e 's/\\x00/^@/g' \\
    -e 's/[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1a\\x1c-\\x1f\\x7f]/?/g' -e 's/\\xc2[\\x80-\\x9f]/<C1>/g' \\
    -e 's/\\xe2\\x80[\\x8e\\x8f\\xaa-\\xae]/<bidi>/g' -e 's/\\xe2\\x81[\\xa6-\\xa9]/<bidi>/g' -e 's/\\xd8\\x9c/<bidi>/g'
}

# run_step LEVEL PASSWORD N EXPECTED_EXIT COMMAND: runs it, shows its output, keeps it for the password.
run_step() {
  local level=$1 password=$2 n=$3 expected=$4 command=$5 status=0
  printf '$ %s\\n' "$command" | shown
  bandit_ssh "$level" "$password" "$command" > "$work/out.$n" 2>&1 || status=$?
  shown < "$work/out.$n"
  if [ "$status" = 255 ]; then echo "level $level: FAILED, ssh could not log in as bandit$level" >&2; exit 1; fi
  if [ "$status" != "$expected" ]; then echo "level $level: note, exit $status where the run had $expected (a new error)" >&2; fi
}

tokens() { grep -aoE '[A-Za-z0-9]+' | awk 'length($0) == 32' || true; }

unpack() {
  local f=$1 i
  for i in $(seq 16); do
    case "$(head -c 3 "$f" | od -An -tx1 | tr -d ' \\n')" in
      1f8b*) gzip -dc < "$f" > "$f.next" 2>/dev/null || true ;;
      425a68) bzip2 -dc < "$f" > "$f.next" 2>/dev/null || true ;;
      *)
        if [ "$(dd if="$f" bs=1 skip=257 count=5 2>/dev/null)" = ustar ]; then tar -xOf "$f" > "$f.next" 2>/dev/null || true
        else cat "$f"; return; fi ;;
    esac
    mv "$f.next" "$f"
  done
}

candidates() {
  local f=$1
  tokens < "$f"
  tr 'A-Za-z' 'N-ZA-Mn-za-m' < "$f" | tokens
  { grep -aoE '[A-Za-z0-9+/]{16,}={0,2}' "$f" || true; } | while read -r t; do printf '%s' "$t" | base64 -d 2>/dev/null | tokens; done
  if command -v xxd > /dev/null && xxd -r "$f" > "$work/bytes" 2>/dev/null && [ -s "$work/bytes" ]; then unpack "$work/bytes" | tokens; fi
}

sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }

# finish_level LEVEL SHA256: picks the password the outputs show (the run's own, by its hash, first),
# proves it by logging in as the next level, and says whether it reproduced.
finish_level() {
  local level=$1 want=$2 next=$(( $1 + 1 )) all candidate="" t
  all=$(for f in "$work"/out.*; do candidates "$f"; done | awk '!seen[$0]++')
  while read -r t; do
    if [ -n "$t" ] && [ "$(sha "$t")" = "$want" ]; then candidate=$t; break; fi
  done <<< "$all"
  [ -n "$candidate" ] || candidate=$(head -n 1 <<< "$all")
  if [ -z "$candidate" ]; then echo "level $level: FAILED, the commands printed no password-shaped text" >&2; exit 1; fi
  if ! bandit_ssh "$next" "$candidate" true 2>&1 | shown; then echo "level $level: FAILED, bandit$next refused the password the output showed" >&2; exit 1; fi
  if [ "$(sha "$candidate")" = "$want" ]; then
    echo "level $level: reproduced (bandit$next logged in with the password the run found)" >&2
  else
    echo "level $level: drifted (bandit$next logged in with a different password than the run found)" >&2
  fi
  if [ -n "\${REPLAY_NEXT_PASSWORD_FILE:-}" ]; then (umask 077; printf '%s' "$candidate" > "$REPLAY_NEXT_PASSWORD_FILE"); fi
}
`;

async function levelScript(runId: string, target: Target, level: SolvedLevel): Promise<string> {
  // The level's own password, where a command sends it, is the shell's $password (from the environment).
  const PLACEHOLDER = '\u0000password\u0000';
  const steps = commandsWithout(level, PLACEHOLDER).map(
    (c, i) =>
      `run_step ${level.level} "$password" ${i + 1} ${c.exitCode ?? 255} ${shellQuote(c.command).split(PLACEHOLDER).join(`'"$password"'`)}`,
  );
  const by = { agent: 'the agent', final_attempt: "the agent's final attempt", person: 'a password a person gave' }[
    level.solvedBy
  ];
  return `#!/usr/bin/env bash
# Level ${level.level} of run ${runId} (${target}): logged in as bandit${level.level}, ${by} found bandit${level.level + 1}'s password
# with the ${level.commands.length} command(s) below. This re-runs them with OpenSSH and proves the password
# they print by logging in as bandit${level.level + 1}.
# bandit${level.level}'s password: $BANDIT${level.level}_PASSWORD, or you are asked. It is never written here.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
password=$(level_password ${level.level})
${steps.join('\n')}
finish_level ${level.level} ${await sha256Hex(level.password)}
`;
}

function replayAll(runId: string, levels: readonly SolvedLevel[], host: string, port: number): string {
  return `#!/usr/bin/env bash
# played against ${host}:${port}; override with BANDIT_HOST=... BANDIT_PORT=... bash replay.sh
# Re-solves levels ${levels[0]?.level}–${levels.at(-1)?.level} of run ${runId} in a row with OpenSSH. Each level's password is
# $BANDIT<N>_PASSWORD when set, else the password the level before proved (bandit0's is public).
# Exit 0 when every level logged in; each level says "reproduced" or "drifted" on stderr.
set -euo pipefail
export BANDIT_HOST="\${BANDIT_HOST:-${host}}" BANDIT_PORT="\${BANDIT_PORT:-${port}}"
echo "replaying against $BANDIT_HOST:$BANDIT_PORT (the run played ${host}:${port}; set BANDIT_HOST / BANDIT_PORT to change)" >&2
here="$(cd "$(dirname "$0")" && pwd)"
carry="$(mktemp)"
trap 'rm -f "$carry"' EXIT
for level in ${levels.map((l) => l.level).join(' ')}; do
  var="BANDIT\${level}_PASSWORD"
  if [ -z "\${!var:-}" ] && [ -s "$carry" ]; then export "$var=$(cat "$carry")"; fi
  : > "$carry"
  REPLAY_NEXT_PASSWORD_FILE="$carry" bash "$here/level$(printf %02d "$level").sh"
done
`;
}

/** The replay/ files, by path; none when no level can be replayed. */
/** `address` is where the run played (`host:port`, the manifest's); null falls back to the target's default. */
export async function replayFiles(
  runId: string,
  target: Target,
  levels: readonly SolvedLevel[],
  address: string | null,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  if (levels.length === 0) return files;
  const { host, port } = replayAddress(target, address);
  files.set('replay/lib.sh', LIB(host, port));
  for (const level of levels) files.set(`replay/level${pad(level.level)}.sh`, await levelScript(runId, target, level));
  files.set('replay/replay.sh', replayAll(runId, levels, host, port));
  return files;
}
