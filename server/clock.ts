// Time is injected so tests can move it (code expiry, session expiry, report months).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC timestamp: the one text format every timestamp column holds, on both databases. */
export const isoNow = (clock: Clock) => clock.now().toISOString();
