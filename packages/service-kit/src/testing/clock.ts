/** A clock tests set and move: `now` is handed to the code under test as its clock. */
export class TestClock {
  private t: number;

  /** Starts at `start` (default: the real time now). */
  constructor(start: Date | number = Date.now()) {
    this.t = typeof start === 'number' ? start : start.getTime();
  }

  /** The current test time. */
  now = (): Date => new Date(this.t);

  /** The current test time in milliseconds (for clocks typed `() => number`). */
  nowMs = (): number => this.t;

  /** Moves the clock forward by `seconds` (backwards when negative). */
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}
