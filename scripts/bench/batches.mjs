// The screens while a long batch writes into the running servers' database (issue #22: "a long
// batch never starves the screens"): readers on the 4 screens' first pages of a day, at full speed,
// from the batch's start to its end.
import autocannon from 'autocannon';
import { READS } from './dayInTheLab.mjs';
import { CONNECTIONS, timed } from './load.mjs';

/**
 * Runs `batch()` while 50 connections (shared out among `bases`) read the screens as `cookie`;
 * resolves with the batch's time and the reads over that time: req/s in all, the worst p99 (ms).
 * `failed`: the non-2xx answers and errors, which fail its row.
 */
export async function readsDuring(bases, cookie, batch) {
  const connections = Math.max(1, Math.round(CONNECTIONS / bases.length));
  const requests = READS.map((path) => ({ method: 'GET', path, headers: { cookie, 'accept-encoding': 'br, gzip' } }));
  // Longer than any batch: stopped when the batch ends.
  const readers = bases.map((url) => autocannon({ url, connections, duration: 3600, requests }));
  let batchRun;
  try {
    batchRun = await timed(batch);
  } finally {
    for (const r of readers) r.stop();
  }
  const results = await Promise.all(readers);
  return {
    failed: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    ms: batchRun.ms,
    value: batchRun.value,
    rps: Math.round(results.reduce((sum, r) => sum + r.requests.total, 0) / (batchRun.ms / 1000)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}
