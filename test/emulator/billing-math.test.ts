import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centiHours,
  formatCentiHours,
  overlapSeconds,
  usageParameters,
  usageString,
} from '../../src/emulator/billing/usage-math.js';

const H = 3600;

describe('billing arithmetic (pure)', () => {
  it('reproduces the examples of the spec', () => {
    expect(usageString(100, 12 * H)).toBe('1200.00h'); // 100 GB for 12 hours
    expect(usageString(8, 48 * H)).toBe('384.00h'); // 8 GB RAM for 48 hours
    expect(usageString(2, 2 * 24 * H)).toBe('96.00h'); // 2 instances × 2 GPUs × 24 hours
    expect(usageString(1, 36)).toBe('0.01h'); // 0.01h equals 36 seconds
  });

  it('rounds half-up to 0.01 h', () => {
    expect(usageString(1, 17)).toBe('0.00h');
    expect(usageString(1, 18)).toBe('0.01h');
    expect(usageString(1, 53)).toBe('0.01h');
    expect(usageString(1, 54)).toBe('0.02h');
    expect(usageString(3, 12)).toBe('0.01h'); // 36 unit-seconds
    expect(usageString(0, 10 * H)).toBe('0.00h');
  });

  it('stays exact where floats would not', () => {
    // 30720 GB for three years: 3.3e12 unit-seconds, beyond float cents precision worries
    expect(usageString(30720, 3 * 365 * 24 * H)).toBe('807321600.00h');
    expect(formatCentiHours(5n)).toBe('0.05h');
    expect(formatCentiHours(123456n)).toBe('1234.56h');
  });

  it('rejects non-integer quantities and durations', () => {
    expect(() => centiHours(1.5, 10)).toThrow(RangeError);
    expect(() => centiHours(1, -1)).toThrow(RangeError);
  });

  it('matches quantity × seconds / 36 rounded half-up for any input', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(10_000_000), (q, s) => {
        const expected = BigInt(Math.floor((q * s) / 36 + 0.5));
        // q*s < 1e12 here, so the float reference is exact enough to compare
        expect(centiHours(q, s)).toBe(expected);
      }),
    );
  });

  it('lists every billable parameter with its labels and the region as a label', () => {
    const hw = {
      cpu_count: 64,
      cpu_arch: 'x86_64',
      gpu_count: 8,
      gpu_model: 'L40S',
      memory_size_gb: 8,
      storage_size_gb: 100,
      storage_type: 'block',
    };
    const params = usageParameters(hw, 'us-east', 48 * H);
    expect(params).toEqual([
      { name: 'cpu_count', usage: '3072.00h', labels: { cpu_arch: 'x86_64' } },
      { name: 'gpu_count', usage: '384.00h', labels: { gpu_model: 'L40S' } },
      { name: 'memory_size', usage: '384.00h', labels: {} },
      { name: 'storage_size', usage: '4800.00h', labels: { storage_type: 'block' } },
      { name: 'region', usage: '48.00h', is_label: true, value: 'us-east' },
    ]);
  });

  it('clips a lifetime to the range in whole seconds', () => {
    expect(overlapSeconds(0, 10_000, 2_000, 5_000)).toBe(3);
    expect(overlapSeconds(0, 10_000, 20_000, 30_000)).toBe(0);
    expect(overlapSeconds(5_000, 4_000, 0, 10_000)).toBe(0);
    expect(overlapSeconds(1_999, 4_500, 0, 10_000)).toBe(3);
  });
});
