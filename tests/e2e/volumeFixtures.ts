/**
 * Browser tests at a laboratory's real volume: the same `lab` fixture, but its worker's server is
 * its own (Playwright gives a test with other worker fixtures its own worker) and holds 2,000
 * generated requests (fixtures/volume.ts, what `labctl seed --volume 2000` inserts) besides the
 * demo accounts.
 *
 *   import { test, expect } from './volumeFixtures.js';
 */
import { insertVolume } from '../../fixtures/volume.js';
import { systemClock } from '../../server/clock.js';
import { test as base, type Lab } from './fixtures.js';
import { withServerDb } from './serverDb.js';

export { expect } from './fixtures.js';

export const VOLUME = 2000;

export const test = base.extend<object, { lab: Lab }>({
  lab: [
    async ({ lab }, provide) => {
      await withServerDb(lab, (db) => insertVolume(db, { requests: VOLUME, clock: systemClock, seed: 12 }));
      await provide(lab);
    },
    { scope: 'worker', timeout: 300_000 },
  ],
});
