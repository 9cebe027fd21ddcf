// The price of hosting counts (schema/hosting.ts): each line at Cloudflare's marginal price, socket messages at
// 20 to a request, duration at the object's 128 MB, storage a month apart from the total.
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_PRICES, emptyUsageCounts, hostingCost } from '../../schema/hosting.ts';

describe('hostingCost', () => {
  it('prices each count at its published rate past the included amounts', () => {
    const cost = hostingCost(
      {
        ...emptyUsageCounts(),
        requests: 1_000_000,
        socketMessages: 2_000_000,
        rowsWritten: 900_000,
        alarmWrites: 100_000,
        rowsRead: 1_000_000_000,
        d1RowsWritten: 2_000_000,
        activeMs: 1_000_000_000,
        storedBytes: 5e9,
      },
      { workerRequests: 1_000_000, d1StoredBytes: 1e9 },
    );
    // 1M requests + 2M messages ÷ 20 = 1.1M requests at $0.15 a million.
    expect(cost.doRequests).toBeCloseTo(1.1 * 0.15);
    // 1M seconds at 0.128 GB = 128,000 GB-s at $12.50 a million.
    expect(cost.doDuration).toBeCloseTo(0.128 * 12.5);
    // Alarm writes are rows written.
    expect(cost.doRowsWritten).toBeCloseTo(1);
    expect(cost.doRowsRead).toBeCloseTo(1);
    expect(cost.d1RowsWritten).toBeCloseTo(2);
    expect(cost.workersRequests).toBeCloseTo(0.3);
    expect(cost.total).toBeCloseTo(1.1 * 0.15 + 0.128 * 12.5 + 1 + 1 + 2 + 0.3);
    expect(cost.storagePerMonth).toBeCloseTo(5 * 0.2 + 1 * 0.75);
    expect(CLOUDFLARE_PRICES.takenFrom.every((url) => url.startsWith('https://developers.cloudflare.com/'))).toBe(true);
  });
});
