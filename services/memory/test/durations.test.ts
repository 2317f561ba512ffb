import fc from 'fast-check';
import { humanDuration, isoDuration, megabytes } from '../src/system/durations';

const ISO = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

describe('durations', () => {
  it('writes ISO 8601 durations that read back to the same number of seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (n) => {
        const m = ISO.exec(isoDuration(n));
        expect(m).not.toBeNull();
        const [, d, h, mi, s] = m!.map((x) => Number(x ?? 0));
        expect(d * 86400 + h * 3600 + mi * 60 + s).toBe(n);
      }),
    );
  });

  it('writes readable durations without leading zero units', () => {
    expect(humanDuration(0)).toBe('0s');
    expect(humanDuration(65)).toBe('1m 5s');
    expect(humanDuration(90061)).toBe('1d 1h 1m 1s');
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(86400)).toBe('P1D');
  });

  it('writes megabyte figures', () => {
    expect(megabytes(1048576 * 1.5)).toBe('1.5 MB');
  });
});
