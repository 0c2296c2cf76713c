import type { Clock } from '../../server/clock.js';

/** A clock tests move by hand (code and session expiry, report months). */
export class TestClock implements Clock {
  private current: Date;
  constructor(start = '2026-03-16T09:00:00.000Z') {
    this.current = new Date(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
  advanceMinutes(minutes: number): void {
    this.current = new Date(this.current.getTime() + minutes * 60_000);
  }
}
