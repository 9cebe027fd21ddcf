// What hosting runs costs on Cloudflare (issue 34): the counters a run's Durable Object keeps of what
// Cloudflare bills for it, Cloudflare's published Workers Paid prices, and the cost of a set of counters at
// those prices. The worker counts (worker/object-usage.ts); bench/hosting-cost.ts prices them.
import { z } from 'zod';

const count = z.number().int().min(0);

/** One run's object, as Cloudflare would bill it, counted by the object itself as it goes. */
export const hostingUsageSchema = z.object({
  /** Requests to the object: RPC calls, fetches (socket upgrades) and alarm invocations, one each. */
  requests: count,
  /** WebSocket messages the object received; Cloudflare bills 20 of them as one request. */
  socketMessages: count,
  /** Rows its SQLite read and wrote, as each statement's cursor counted them (rowsRead, rowsWritten). */
  rowsRead: count,
  rowsWritten: count,
  /** Alarms set or deleted; each writes the alarm's row in the object's storage. */
  alarmWrites: count,
  /** Rows D1 read and wrote for the run's mirror, as D1 answered each statement (meta.rows_read, rows_written). */
  d1RowsRead: count,
  d1RowsWritten: count,
  /** Bytes the object's SQLite holds now (sql.databaseSize). */
  storedBytes: count,
  /** Milliseconds the object spent in its alarm's work (the proxy calls, above all): it is billed as active then. */
  activeMs: count,
});
export type HostingUsage = z.infer<typeof hostingUsageSchema>;

/** Counters that add up: everything but the bytes stored, which is a level, not a flow. */
export type UsageCounts = Omit<HostingUsage, 'storedBytes'>;

export const emptyUsageCounts = (): UsageCounts => ({
  requests: 0,
  socketMessages: 0,
  rowsRead: 0,
  rowsWritten: 0,
  alarmWrites: 0,
  d1RowsRead: 0,
  d1RowsWritten: 0,
  activeMs: 0,
});

/**
 * Cloudflare's Workers Paid prices in USD, past what the $5 a month includes (the included amounts beside them).
 * Taken from the pages below as they stood in 2025, checked on 2026-11-28 against a stored copy of the Durable
 * Objects page (this machine has no network to read the live pages): check them before relying on a figure.
 */
export const CLOUDFLARE_PRICES = {
  takenFrom: [
    'https://developers.cloudflare.com/workers/platform/pricing/',
    'https://developers.cloudflare.com/durable-objects/platform/pricing/',
    'https://developers.cloudflare.com/d1/platform/pricing/',
  ],
  asOf: '2025',
  monthlyBaseUsd: 5,
  workers: {
    requestsPerMillion: 0.3,
    includedRequests: 10_000_000,
    cpuPerMillionMs: 0.02,
    includedCpuMs: 30_000_000,
  },
  durableObjects: {
    requestsPerMillion: 0.15,
    includedRequests: 1_000_000,
    /** WebSocket messages received per billed request. */
    socketMessagesPerRequest: 20,
    durationPerMillionGbSeconds: 12.5,
    includedGbSeconds: 400_000,
    /** Duration is billed at the object's 128 MB, whatever it uses. */
    memoryGb: 0.128,
    rowsReadPerMillion: 0.001,
    includedRowsRead: 25_000_000_000,
    rowsWrittenPerMillion: 1,
    includedRowsWritten: 50_000_000,
    storagePerGbMonth: 0.2,
    includedStorageGb: 5,
  },
  d1: {
    rowsReadPerMillion: 0.001,
    includedRowsRead: 25_000_000_000,
    rowsWrittenPerMillion: 1,
    includedRowsWritten: 50_000_000,
    storagePerGbMonth: 0.75,
    includedStorageGb: 5,
  },
} as const;

/** What one price table line costs, in USD, for the counters given; the marginal price (past the included amounts). */
export type HostingCost = {
  doRequests: number;
  doDuration: number;
  doRowsRead: number;
  doRowsWritten: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  workersRequests: number;
  total: number;
  /** Keeping what was stored for a month: the objects' SQLite and D1's rows. */
  storagePerMonth: number;
};

/**
 * The cost at the marginal prices (every unit past the included amounts) of usage counted by runs' objects,
 * the Worker requests their clients made and the bytes D1 holds for them. Pure: figures in, dollars out.
 */
export function hostingCost(
  usage: HostingUsage,
  extra: { workerRequests: number; d1StoredBytes: number },
  prices = CLOUDFLARE_PRICES,
): HostingCost {
  const perMillion = (n: number, price: number) => (n / 1_000_000) * price;
  const d = prices.durableObjects;
  const billedRequests = usage.requests + usage.socketMessages / d.socketMessagesPerRequest;
  const gbSeconds = (usage.activeMs / 1000) * d.memoryGb;
  const cost = {
    doRequests: perMillion(billedRequests, d.requestsPerMillion),
    doDuration: perMillion(gbSeconds, d.durationPerMillionGbSeconds),
    doRowsRead: perMillion(usage.rowsRead, d.rowsReadPerMillion),
    doRowsWritten: perMillion(usage.rowsWritten + usage.alarmWrites, d.rowsWrittenPerMillion),
    d1RowsRead: perMillion(usage.d1RowsRead, prices.d1.rowsReadPerMillion),
    d1RowsWritten: perMillion(usage.d1RowsWritten, prices.d1.rowsWrittenPerMillion),
    workersRequests: perMillion(extra.workerRequests, prices.workers.requestsPerMillion),
  };
  const gb = (bytes: number) => bytes / 1e9;
  return {
    ...cost,
    total: Object.values(cost).reduce((sum, usd) => sum + usd, 0),
    storagePerMonth:
      gb(usage.storedBytes) * d.storagePerGbMonth + gb(extra.d1StoredBytes) * prices.d1.storagePerGbMonth,
  };
}
