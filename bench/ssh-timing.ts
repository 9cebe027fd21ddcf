// The ssh2 client the benchmarks time against the range: Nagle off, one exec at a time, output read
// to the end, as the proxy's own session does it.
import ssh2 from 'ssh2';

type TunableClient = ssh2.Client & { setNoDelay(noDelay?: boolean): void };

/** Logs in to the range on loopback; rejects when the login is refused. */
export function connectClient(port: number, username = 'bandit0', password = 'bandit0'): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client() as TunableClient;
    client.on('ready', () => resolve(client)).on('error', reject);
    client.connect({ host: '127.0.0.1', port, username, password, readyTimeout: 10_000 });
    client.setNoDelay(true);
  });
}

/** Runs one command and resolves with its stdout once the channel closes. */
export function exec(client: ssh2.Client, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) return reject(err);
      let out = '';
      stream.on('data', (d: Buffer) => (out += d));
      stream.stderr.resume();
      stream.on('close', () => resolve(out));
    });
  });
}
