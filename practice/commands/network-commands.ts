// nc, openssl s_client and nmap against the world's emulated localhost services. Only localhost
// exists: any other host fails the way it would on a machine without a network.
import { defineCommand, latin1FromBytes } from 'just-bash';
import type { Service } from '../world/world.ts';
import type { CommandEnv } from './command-env.ts';
import { fail, ok, parseFlags } from './command-env.ts';

const LOCAL = new Set(['localhost', '127.0.0.1', '::1', 'practice', 'localhost.localdomain', '0.0.0.0']);

export function isLocalHost(host: string): boolean {
  return LOCAL.has(host.toLowerCase());
}

function parsePorts(spec: string): number[] | null {
  const ports: number[] = [];
  for (const part of spec.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    if (from < 1 || to > 65535 || to < from || to - from > 65535) return null;
    for (let p = from; p <= to; p++) ports.push(p);
  }
  return ports;
}

const CERT_BANNER = (port: number) =>
  `CONNECTED(00000003)\ndepth=0 CN = localhost\nverify error:num=18:self-signed certificate\nverify return:1\n---\nCertificate chain\n 0 s:CN = localhost\n   i:CN = localhost\n   a:PKEY: rsaEncryption, 2048 (bit); sigalg: RSA-SHA256\n---\nServer certificate\nsubject=CN = localhost\nissuer=CN = localhost\n---\nNo client certificate CA names sent\nPeer signing digest: SHA256\nPeer signature type: RSA-PSS\nServer Temp Key: X25519, 253 bits\n---\nSSL handshake has read 1339 bytes and written 373 bytes\nVerification error: self-signed certificate\n---\nNew, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384\nProtocol: TLSv1.3\nServer public key is 2048 bit\n---\nread R BLOCK\n# practice range: TLS to port ${port} is emulated\n`;

export function networkCommands(env: CommandEnv) {
  const { world, session } = env;
  const serviceAt = (port: number): Service | undefined => world.services.get(port);

  const nc = (name: string) =>
    defineCommand(name, async (args, ctx) => {
      const { flags, operands } = parseFlags(args, ['p', 'w', 'i', 'q']);
      const input = latin1FromBytes(ctx.stdin);
      const verbose = flags.has('v');
      if (flags.has('l')) {
        const port = Number(
          flags.get('p') !== undefined && flags.get('p') !== true ? flags.get('p') : operands[operands.length - 1],
        );
        if (!Number.isInteger(port) || port < 1 || port > 65535) return fail(`${name}: missing port number`);
        if (port < 1024) return fail(`${name}: Permission denied`);
        if (serviceAt(port) || session.listeners.has(port)) return fail(`${name}: Address already in use`);
        session.listeners.set(port, input);
        return ok('', verbose ? `Listening on 0.0.0.0 ${port}\n` : '');
      }
      const [host, portSpec] = operands;
      if (!host || !portSpec)
        return fail(
          `usage: ${name} [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-p source_port] [-w timeout] [destination] [port]`,
        );
      if (!isLocalHost(host))
        return fail(`${name}: getaddrinfo for host "${host}" port ${portSpec}: Name or service not known`);
      const ports = parsePorts(portSpec);
      if (!ports) return fail(`${name}: port range not valid`);
      if (flags.has('z')) {
        let stderr = '';
        for (const port of ports) {
          if (serviceAt(port)) stderr += `Connection to ${host} ${port} port [tcp/*] succeeded!\n`;
          else if (verbose && ports.length === 1)
            stderr += `${name}: connect to ${host} port ${port} (tcp) failed: Connection refused\n`;
        }
        return { stdout: '', stderr: verbose ? stderr : '', exitCode: ports.some((p) => serviceAt(p)) ? 0 : 1 };
      }
      const port = ports[0]!;
      const service = serviceAt(port);
      if (!service) return fail(`${name}: connect to ${host} port ${port} (tcp) failed: Connection refused`);
      const ssl = flags.has('ssl');
      if (service.tls && !ssl) return ok(''); // the server waits for a TLS handshake that never comes
      if (!service.tls && ssl) return fail('Ncat: Input/output error.');
      return ok(service.answer(input));
    });

  const openssl = defineCommand('openssl', async (args, ctx) => {
    const [sub, ...rest] = args;
    if (sub !== 's_client')
      return fail(`openssl: the practice range emulates only "openssl s_client"${sub ? `, not "${sub}"` : ''}`);
    let target = '';
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '-connect') target = rest[++i] ?? '';
      else if (rest[i] === '-host') target = `${rest[++i] ?? ''}:${target.split(':')[1] ?? ''}`;
      else if (rest[i] === '-port') target = `${target.split(':')[0] || 'localhost'}:${rest[++i] ?? ''}`;
      else if (!rest[i]!.startsWith('-') && !target) target = rest[i]!;
    }
    const quiet = rest.includes('-quiet');
    const [host = 'localhost', portText = '443'] = target.split(':');
    if (!isLocalHost(host)) return fail(`BIO_lookup_ex:system lib\nconnect:errno=2`);
    const port = Number(portText);
    const service = serviceAt(port);
    if (!service)
      return fail('40E7B2F7FFFF0000:error:8000006F:system library:BIO_connect:Connection refused\nconnect:errno=111');
    if (!service.tls) {
      return fail(
        `CONNECTED(00000003)\n40E7B2F7FFFF0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../ssl/record/ssl3_record.c:354:\n---\nno peer certificate available\n---`,
      );
    }
    const answer = service.answer(latin1FromBytes(ctx.stdin));
    return ok(
      quiet ? answer : `${CERT_BANNER(port)}${answer}closed\n`,
      quiet ? 'depth=0 CN = localhost\nverify error:num=18:self-signed certificate\n' : '',
    );
  });

  const nmap = defineCommand('nmap', async (args) => {
    const { flags, operands } = parseFlags(args, ['p']);
    const host = operands[0];
    if (!host)
      return fail('Nmap 7.94 ( https://nmap.org )\nUsage: nmap [Scan Type(s)] [Options] {target specification}');
    if (!isLocalHost(host))
      return ok(
        `Starting Nmap 7.94 ( https://nmap.org )\nFailed to resolve "${host}".\nWARNING: No targets were specified, so 0 hosts scanned.\nNmap done: 0 IP addresses (0 hosts up) scanned\n`,
      );
    const spec = flags.get('p');
    const ports =
      typeof spec === 'string' ? (spec === '-' ? parsePorts('1-65535') : parsePorts(spec)) : parsePorts('1-1000');
    if (!ports) return fail('Error #487: Your port specifications are illegal.');
    const open = ports.filter((p) => serviceAt(p));
    const versions = flags.has('s') || flags.has('sV');
    let out = `Starting Nmap 7.94 ( https://nmap.org )\nNmap scan report for ${host} (127.0.0.1)\nHost is up (0.00011s latency).\n`;
    if (ports.length - open.length > 0)
      out += `Not shown: ${ports.length - open.length} closed tcp ports (conn-refused)\n`;
    if (open.length) {
      out += `PORT      STATE SERVICE${versions ? '     VERSION' : ''}\n`;
      for (const port of open) {
        const s = serviceAt(port)!;
        const kind = versions ? (s.tls ? 'ssl/unknown' : 'echo?') : 'unknown';
        out += `${`${port}/tcp`.padEnd(9)} open  ${kind}\n`;
      }
    }
    out += `\nNmap done: 1 IP address (1 host up) scanned in 0.05 seconds\n`;
    return ok(out);
  });

  return [nc('nc'), nc('ncat'), nc('netcat'), openssl, nmap];
}
