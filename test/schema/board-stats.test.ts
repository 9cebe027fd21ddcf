// The board's interval and pass@k against figures worked out by hand (and the published Wilson table).
import { describe, expect, it } from 'vitest';
import { passAtK, passAtList, wilson95 } from '../../schema/board-stats.ts';

describe('wilson95', () => {
  it('gives the Wilson score interval: 8 of 10 is 80 % (49.0 %–94.3 %)', () => {
    // centre = (0.8 + z²/20)/(1 + z²/10) = 0.71674; half = z·√(0.016 + z²/400)/(1 + z²/10) = 0.22657.
    const r = wilson95(8, 10)!;
    expect(r.rate).toBe(0.8);
    expect(r.low).toBeCloseTo(0.4902, 4);
    expect(r.high).toBeCloseTo(0.9433, 4);
    expect(r.interval).toBe('wilson-95');
  });

  it('stays within [0, 1] and is not empty at none or all', () => {
    // 0 of 5: high = z²/5 / (1 + z²/5) = 0.4345.
    expect(wilson95(0, 5)).toMatchObject({ rate: 0, low: 0 });
    expect(wilson95(0, 5)!.high).toBeCloseTo(0.4345, 4);
    expect(wilson95(5, 5)).toMatchObject({ rate: 1, high: 1 });
    expect(wilson95(5, 5)!.low).toBeCloseTo(0.5655, 4);
    expect(wilson95(1, 1)!.low).toBeCloseTo(0.2065, 4);
    expect(wilson95(3, 0)).toBeNull();
  });

  it('narrows as n grows: 50 of 100 is 40.4 %–59.6 %', () => {
    const r = wilson95(50, 100)!;
    expect(r.low).toBeCloseTo(0.4038, 4);
    expect(r.high).toBeCloseTo(0.5962, 4);
  });
});

describe('passAtK', () => {
  it('is 1 − C(n−c, k)/C(n, k)', () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    // 1 − C(3,2)/C(5,2) = 1 − 3/10.
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passAtK(2, 1, 3)).toBeNull();
  });
});

describe('passAtList', () => {
  it('gives pass@1, @3 and @5 where the runs allow: 2 solved of 4 runs', () => {
    // pass@1 = 2/4; pass@3 = 1 − C(2,3)/C(4,3) = 1 (any 3 of 4 hold a solved run); no pass@5 with 4 runs.
    expect(passAtList(4, 2)).toEqual([
      { k: 1, value: 0.5 },
      { k: 3, value: 1 },
    ]);
    // 1 solved of 6: pass@3 = 1 − C(5,3)/C(6,3) = 1 − 10/20; pass@5 = 1 − C(5,5)/C(6,5) = 1 − 1/6.
    const six = passAtList(6, 1);
    expect(six.map((p) => p.k)).toEqual([1, 3, 5]);
    expect(six[1]!.value).toBeCloseTo(0.5, 12);
    expect(six[2]!.value).toBeCloseTo(5 / 6, 12);
    expect(passAtList(0, 0)).toEqual([]);
  });
});
