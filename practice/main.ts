// Entry point: `npm run practice -- --seed S --port P`. Starts the range alone and prints its levels.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';
import { PRACTICE_LEVELS } from '../schema/levels.ts';
import { commandLogFile } from './command-log.ts';
import { loadHostKey } from './host-key.ts';
import { readOrCreate } from './persisted-file.ts';
import { startRange } from './server.ts';

const settingsSchema = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int().min(0, 'must be a port number 0-65535').max(65535, 'must be a port number 0-65535'),
  seed: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  hostKeyPath: z.string().min(1),
  maxConnections: z.coerce.number().int().min(1, 'must be at least 1').max(10_000, 'must be at most 10000'),
  authTimeoutMs: z.coerce
    .number()
    .int()
    .min(100, 'must be at least 100 (milliseconds)')
    .max(600_000, 'must be at most 600000'),
  maxConnectionsPerAddress: count(10_000).optional(),
  commandTimeoutMs: z.coerce
    .number()
    .int()
    .min(1_000, 'must be at least 1000 (milliseconds)')
    .max(86_400_000, 'must be at most 86400000 (a day)'),
  commandCpuMs: z.coerce
    .number()
    .int()
    .min(100, 'must be at least 100 (milliseconds)')
    .max(3_600_000, 'must be at most 3600000 (an hour)'),
  workers: count(256),
  cronIntervalMs: z.coerce.number().int().min(1_000, 'must be at least 1000 (milliseconds)').optional(),
  privateWorldsFrom: z
    .string()
    .regex(/^[0-9A-Fa-f.:]+(,[0-9A-Fa-f.:]+)*$/, 'must be IP addresses separated by commas')
    .optional(),
  // An audit log of every exec request (one JSON line each), off unless a path is given.
  commandLog: z.string().min(1, 'must be a file path').optional(),
});

/** A whole number from 1 to `most`, as an env var gives it. */
function count(most: number) {
  return z.coerce.number().int().min(1, 'must be at least 1').max(most, `must be at most ${most}`);
}

// A single bad command must never take the range down: log it and keep serving.
process.on('unhandledRejection', (reason) => console.error('practice: unhandled rejection (ignored):', reason));
process.on('uncaughtException', (err) => console.error('practice: uncaught exception (ignored):', err));

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' }, seed: { type: 'string' }, quiet: { type: 'boolean' } },
});
const parsed = settingsSchema.safeParse({
  host: values.host ?? process.env.PRACTICE_HOST ?? '127.0.0.1',
  port: values.port ?? process.env.PRACTICE_PORT ?? 2220,
  // A world that outlives a restart: runs in progress hold passwords it handed out.
  seed:
    values.seed ??
    process.env.PRACTICE_SEED ??
    readOrCreate(process.env.PRACTICE_SEED_FILE ?? '.state/practice/seed', () => randomBytes(6).toString('hex')).trim(),
  hostKeyPath: process.env.PRACTICE_HOST_KEY ?? '.state/practice/host_key',
  maxConnections: process.env.PRACTICE_MAX_CONNECTIONS ?? 256,
  authTimeoutMs: process.env.PRACTICE_AUTH_TIMEOUT_MS ?? 30_000,
  maxConnectionsPerAddress: process.env.PRACTICE_MAX_CONNECTIONS_PER_ADDRESS,
  commandTimeoutMs: process.env.PRACTICE_COMMAND_TIMEOUT_MS ?? 5 * 60_000,
  commandCpuMs: process.env.PRACTICE_COMMAND_CPU_MS ?? 10_000,
  workers: process.env.PRACTICE_WORKERS ?? 16,
  cronIntervalMs: process.env.PRACTICE_CRON_INTERVAL_MS,
  privateWorldsFrom: process.env.PRACTICE_PRIVATE_WORLDS_FROM,
  commandLog: process.env.PRACTICE_COMMAND_LOG || undefined,
});
if (!parsed.success) {
  console.error(`practice range configuration is invalid: ${describeIssues(parsed.error)}`);
  process.exit(1);
}
const { host, port, seed, hostKeyPath, maxConnections, authTimeoutMs, maxConnectionsPerAddress, cronIntervalMs } =
  parsed.data;
try {
  const range = await startRange({
    host,
    port,
    seed,
    hostKey: loadHostKey(hostKeyPath),
    maxConnections,
    authTimeoutMs,
    ...(maxConnectionsPerAddress ? { maxConnectionsPerAddress } : {}),
    ...(cronIntervalMs ? { cronIntervalMs } : {}),
    ...(parsed.data.privateWorldsFrom ? { privateWorldsFrom: parsed.data.privateWorldsFrom.split(',') } : {}),
    limits: { commandTimeoutMs: parsed.data.commandTimeoutMs, commandCpuMs: parsed.data.commandCpuMs },
    workers: { max: parsed.data.workers },
    ...(parsed.data.commandLog ? { commandLog: commandLogFile(parsed.data.commandLog) } : {}),
  });
  console.log(`practice range listening on ssh://bandit0@${host}:${range.port} (password: bandit0), seed ${seed}`);
  if (!values.quiet) {
    console.log('level  faithful  goal');
    for (const level of PRACTICE_LEVELS) {
      console.log(
        `${String(level.level).padStart(5)}  ${(level.faithful ? 'yes' : 'no').padEnd(8)}  ${level.goal.slice(0, 100)}${level.goal.length > 100 ? '…' : ''}`,
      );
    }
  }
  const stop = () => void range.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
  console.error(inUse ? `port ${port} is in use; set PRACTICE_PORT (or --port) to a free port` : String(err));
  process.exit(1);
}
