// "A day in the lab" for `npm run bench`: readers on the screens' first pages at full speed while
// submissions, approvals, result saves and releases arrive at fixed rates, spread over the servers.
// Every write must be acknowledged and found stored afterwards.
import { load, percentile } from './load.mjs';

/** The 4 screens' first pages the readers of a day call. */
export const READS = ['/requests/queue/pending?limit=50', '/requests/queue/for-testing?limit=50', '/requests/queue/for-release?limit=50', '/requests/released?limit=50'];

/** The rates (per second) of one row: `submissions`, and the rest of the day's mix scaled to it. */
export const mixOf = (submissions) => ({ submissions, approvals: submissions / 4, saves: submissions, releases: submissions / 10 });
/** Submissions alone, as the issue's own measurement of reads while writes arrive. */
export const submissionsOnly = (submissions) => ({ submissions, approvals: 0, saves: 0, releases: 0 });

/** Ids the writers work on, enough for `seconds` at the highest rates. */
export async function prepareDay(db, seconds) {
  const enough = Math.ceil(seconds * 25) + 10;
  const pending = await db('requests').where('status', 'PENDING_REVIEW').orderBy('id', 'desc').limit(enough).pluck('id');
  const forRelease = await db('requests').where('status', 'FOR_RELEASE').orderBy('id', 'desc').limit(enough).pluck('id');
  const samples = await db('analyses as a')
    .join('requests as r', 'r.id', 'a.request_id')
    .where({ 'r.status': 'FOR_TESTING', 'a.test_code': 'eColi' })
    .orderBy('a.id', 'desc')
    .limit(enough)
    .pluck('a.sample_id');
  return { pending, forRelease, samples };
}

/**
 * Fires `rate` calls a second of `send(i)` for `seconds` (at most `limit`); resolves with each
 * call's status and latency once all have answered.
 */
async function paced(rate, seconds, send, limit = Infinity) {
  const count = Math.min(limit, Math.floor(rate * seconds));
  const calls = [];
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const due = started + (i * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    const sent = performance.now();
    calls.push(
      send(i).then(
        async (res) => {
          await res.arrayBuffer();
          return { status: res.status, ms: performance.now() - sent };
        },
        (err) => ({ status: 0, ms: performance.now() - sent, error: String(err) }),
      ),
    );
  }
  return Promise.all(calls);
}

/**
 * One row of the day: readers on `bases` while the writers send `mix` (rates per second). `work` is
 * what prepareDay found; each row takes ids from it (and removes them), so rows never repeat a write.
 */
export async function dayRow({ bases, db, cookies, clientId, payloadOf, work, mix, seconds, tag }) {
  const at = (i) => bases[i % bases.length];
  const json = (cookie) => ({ cookie, 'content-type': 'application/json' });
  const approvals = work.pending.splice(0, Math.floor(mix.approvals * seconds));
  const releases = work.forRelease.splice(0, Math.floor(mix.releases * seconds));
  const samples = work.samples.splice(0, Math.floor(mix.saves * seconds));
  const value = `${tag} cfu/g`;
  const before = Number((await db('requests').where('lot_batch_no', `LOT-${tag}`).count({ n: '*' }).first()).n);
  const [reads, ...writes] = await Promise.all([
    load(bases, '', { requests: READS.map((path) => ({ method: 'GET', path, headers: { cookie: cookies.staff, 'accept-encoding': 'br, gzip' } })) }),
    paced(mix.submissions, seconds, (i) => fetch(`${at(i)}/requests/submitrequest/${clientId}`, { method: 'POST', headers: json(cookies.client), body: JSON.stringify(payloadOf(`LOT-${tag}`)) })),
    paced(mix.approvals, seconds, (i) => fetch(`${at(i)}/requests/approve/${approvals[i]}`, { method: 'PUT', headers: json(cookies.staff), body: '{}' }), approvals.length),
    paced(mix.saves, seconds, (i) => fetch(`${at(i)}/microbioTestResults/${samples[i]}`, { method: 'PUT', headers: json(cookies.tester), body: JSON.stringify({ eColi: value }) }), samples.length),
    paced(mix.releases, seconds, (i) => fetch(`${at(i)}/requests/approveRelease/${releases[i]}`, { method: 'PUT', headers: json(cookies.staff), body: JSON.stringify({ password: cookies.staffPassword }) }), releases.length),
  ]);
  const stored = {
    submissions: Number((await db('requests').where('lot_batch_no', `LOT-${tag}`).count({ n: '*' }).first()).n) - before,
    approvals: approvals.length ? Number((await db('requests').whereIn('id', approvals).whereNot('status', 'PENDING_REVIEW').count({ n: '*' }).first()).n) : 0,
    saves: samples.length ? Number((await db('analyses').whereIn('sample_id', samples).where({ test_code: 'eColi', value }).count({ n: '*' }).first()).n) : 0,
    releases: releases.length ? Number((await db('requests').whereIn('id', releases).where('status', 'RELEASED').count({ n: '*' }).first()).n) : 0,
  };
  const kinds = ['submissions', 'approvals', 'saves', 'releases'];
  const all = writes.flat();
  return {
    reads,
    writes: Object.fromEntries(
      kinds.map((kind, k) => [kind, { sent: writes[k].length, acknowledged: writes[k].filter((w) => w.status >= 200 && w.status < 300).length, stored: stored[kind], failures: writes[k].filter((w) => w.status < 200 || w.status >= 300).map((w) => w.error ?? w.status).slice(0, 3) }]),
    ),
    writeP99: all.length ? percentile(all.map((w) => w.ms), 99) : 0,
  };
}
