// Every TCP port a process tree listens on, read from /proc: the socket inodes each process holds
// (/proc/<pid>/fd) matched against the kernel's listening sockets (/proc/net/tcp and tcp6).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** One listening socket: its address, port and the process that holds it. */
export type ListeningPort = { address: string; port: number; pid: number; command: string };

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** `root` and every live descendant. */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...(children.get(found[i]!) ?? []));
  return found;
}

/** Socket inode → pid, for every socket the processes hold open. */
function socketInodes(pids: number[]): Map<string, number> {
  const inodes = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) inodes.set(match[1]!, pid);
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  return inodes;
}

/** /proc/net/tcp's hex address (little-endian per 32-bit word) as text. */
function addressOf(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => [3, 2, 1, 0].map((i) => w.slice(i * 2, i * 2 + 2)));
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(`${bytes[i]}${bytes[i + 1]}`.replace(/^0+(?=.)/, ''));
  return groups.join(':');
}

/** Every listening TCP socket (IPv4 and IPv6) held by `root` or a descendant of it. */
export function listeningPorts(root: number): ListeningPort[] {
  const inodes = socketInodes(tree(root));
  const found: ListeningPort[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (read(table) ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // fields: sl, local_address, rem_address, st (0A = LISTEN), …, inode (10th).
      if (fields[3] !== '0A') continue;
      const pid = inodes.get(fields[9] ?? '');
      if (pid === undefined) continue;
      const [hexAddress, hexPort] = (fields[1] ?? '').split(':');
      const command = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim();
      found.push({ address: addressOf(hexAddress ?? ''), port: parseInt(hexPort ?? '0', 16), pid, command });
    }
  }
  return found;
}
