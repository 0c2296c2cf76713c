// Our write calls beside the obvious implementation of them on the same data (issue #22): starting
// the obvious servers (obviousServer.mjs) and measuring each call on both, back to back, under the
// same load. Every acknowledged write must be found stored; approval numbers unique and gap-free.
import path from 'node:path';
import { SECONDS, failures, load, startProcess, stop } from './load.mjs';
import { submissionPayloads } from './payload.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);

/**
 * Starts `instances` processes of the obvious implementation on the database `settings`
 * ({ client: 'sqlite3', filename } or { client: 'pg', connectionString, searchPath }), each on a free
 * port of 127.0.0.1; resolves with { bases: ['http://127.0.0.1:PORT', ...], stop: async () => {} }.
 */
export async function startObvious({ settings, instances, root }) {
  const env = { ...process.env, OBVIOUS_SETTINGS: JSON.stringify(settings), OBVIOUS_ROOT: root };
  const started = Array.from({ length: instances }, () => startProcess('node', [path.join(here, 'obviousServer.mjs')], { cwd: root, env }));
  const stopAll = () => Promise.all(started.map((s) => stop(s.child)));
  try {
    const listening = await Promise.all(started.map((s) => s.listening));
    return { bases: listening.map((l) => l.url), stop: async () => void (await stopAll()) };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

const count = async (query) => Number((await query.count({ n: '*' }).first()).n);
const json = (cookie) => ({ cookie, 'content-type': 'application/json' });

/** Submissions for SECONDS on `bases`, each of lot `lot`: the load and how many requests of the lot are stored. */
async function submissions(bases, { db, cookies, clientId, payloadOf, lot }) {
  const measured = await load(bases, `/requests/submitrequest/${clientId}`, { method: 'POST', headers: json(cookies.client), body: JSON.stringify(payloadOf(lot)) });
  return { ...measured, stored: await count(db('requests').where('lot_batch_no', lot)) };
}

/** `amount` PUTs on `bases`, the i-th on `pathOf(ids[i])`; ids of a server are never reused. */
function eachOnce(bases, ids, pathOf, { cookie, body }) {
  let next = 0;
  return load(bases, '', {
    // `amount` is per server; every call takes the next id.
    amount: Math.floor(ids.length / bases.length),
    requests: [{ method: 'PUT', headers: json(cookie), body, setupRequest: (req) => ({ ...req, path: pathOf(ids[next++]) }) }],
  });
}

async function approvals(bases, ids, { db, cookies }) {
  const measured = await eachOnce(bases, ids, (id) => `/requests/approve/${id}`, { cookie: cookies.staff, body: '{}' });
  const stored = await count(db('requests').whereIn('id', ids).where('status', 'FOR_TESTING').whereNotNull('control_number'));
  return { ...measured, stored };
}

async function saves(bases, samples, { db, cookies, value }) {
  const measured = await eachOnce(bases, samples, (id) => `/microbioTestResults/${id}`, { cookie: cookies.tester, body: JSON.stringify({ eColi: value }) });
  return { ...measured, stored: await count(db('analyses').whereIn('sample_id', samples).where({ test_code: 'eColi', value })) };
}

/** This year's control numbers are 1..n without a gap, each once. */
async function numbersGapFree(db) {
  const year = new Date().getUTCFullYear();
  const numbers = await db('requests').where('control_number', 'like', `${year}-%`).pluck('control_number');
  const sequence = numbers.map((n) => Number(n.slice(5))).sort((a, b) => a - b);
  return { count: numbers.length, gapFree: sequence.every((n, i) => n === i + 1) && new Set(numbers).size === numbers.length };
}

/**
 * Waits until our servers' outbox workers have sent every pending mail: each measurement starts
 * quiet, not while the mails of the one before (e.g. the obvious servers', which have no worker)
 * are being sent.
 */
async function outboxSent(db, deadlineMs = 300_000) {
  const until = Date.now() + deadlineMs;
  while ((await count(db('outbox').where('state', 'pending'))) > 0) {
    if (Date.now() > until) throw new Error('The outbox still has pending mail: is an outbox worker running?');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The obvious servers keep no queue progress rows (request_progress, our servers' own bookkeeping):
 * recomputed here for the requests they changed, outside any measurement, so our screens and later
 * measurements see those requests as our servers would have left them.
 */
async function refreshProgressOf(root, db, requestIds) {
  const { refreshProgress } = await import(path.join(root, 'dist/server/db/requestProgress.js'));
  await db.transaction((trx) => refreshProgress(trx, requestIds));
}

/** One bench row: ours beside the obvious, both with every acknowledged write stored. */
function row(name, obvious, ours, extra = { ok: true, note: '' }) {
  const ratio = ours.rps / obvious.rps;
  const whole = (r) => r.stored >= r.total && !r.failed;
  const tally = (r) => `${r.total} acknowledged, ${r.stored} stored${failures(r)}`;
  return {
    name: `${name}, req/s (ours ${tally(ours)}; obvious ${tally(obvious)}${extra.note})`,
    baseline: `${obvious.rps} (p99 ${obvious.p99} ms)`,
    ours: `${ours.rps} (p99 ${ours.p99} ms)`,
    ratio: `${ratio.toFixed(2)} x`,
    goal: '>= 1x the obvious',
    pass: ratio >= 1 && whole(ours) && whole(obvious) && extra.ok,
  };
}

/** Takes two disjoint halves of `ids`, at most `most` each: one for the obvious servers, one for ours. */
function halves(ids, most) {
  const n = Math.min(Math.floor(ids.length / 2), most);
  return [ids.slice(0, n), ids.slice(n, 2 * n)];
}

/** Our calls beside the obvious ones under the same load: rows { name, baseline, ours, ratio, goal, pass } for submissions, approvals, result saves. */
export async function writesBesideObvious({ settings, instances, root, ours, db, cookies, clientId }) {
  const obvious = await startObvious({ settings, instances, root });
  try {
    const context = { db, cookies, clientId, payloadOf: await submissionPayloads(root) };
    const tag = Date.now();
    const rows = [];

    // Each measurement waits for the mail of the one before to be sent.
    const quiet = async (measure) => {
      await outboxSent(db);
      return measure();
    };
    const submitted = [
      await quiet(() => submissions(obvious.bases, { ...context, lot: `LOT-OBVIOUS-${tag}` })),
      await quiet(() => submissions(ours, { ...context, lot: `LOT-OURS-${tag}` })),
    ];
    rows.push(row('POST /requests/submitrequest', ...submitted));
    await refreshProgressOf(root, db, (await db('requests').where('lot_batch_no', `LOT-OBVIOUS-${tag}`).pluck('id')).map(Number));

    // Each side approves requests of its own; as bench.mjs, at most 300/s worth of calls.
    const pending = await db('requests').where('status', 'PENDING_REVIEW').orderBy('id').pluck('id');
    const [obviousIds, ourIds] = halves(pending.map(Number), 300 * SECONDS);
    const approved = [await quiet(() => approvals(obvious.bases, obviousIds, context)), await quiet(() => approvals(ours, ourIds, context))];
    await refreshProgressOf(root, db, obviousIds);
    const numbers = await numbersGapFree(db);
    rows.push(row('PUT /requests/approve', ...approved, { ok: numbers.gapFree, note: `; ${numbers.count} numbers this year, ${numbers.gapFree ? 'gap-free, unique' : 'WITH GAPS OR REPEATS'}` }));

    // E. coli results of requests under testing; each side saves samples of its own.
    const samples = await db('analyses as a')
      .join('requests as r', 'r.id', 'a.request_id')
      .where({ 'r.status': 'FOR_TESTING', 'a.test_code': 'eColi' })
      .whereNull('a.value')
      .orderBy('a.id')
      .pluck('a.sample_id');
    const [obviousSamples, ourSamples] = halves(samples.map(Number), 1000 * SECONDS);
    const value = `BENCH-${tag} cfu/g`;
    const saved = [await quiet(() => saves(obvious.bases, obviousSamples, { ...context, value })), await quiet(() => saves(ours, ourSamples, { ...context, value }))];
    rows.push(row('PUT /microbioTestResults/:sampleId', ...saved));
    await refreshProgressOf(root, db, (await db('samples').whereIn('id', obviousSamples).distinct().pluck('request_id')).map(Number));
    return rows;
  } finally {
    await obvious.stop();
  }
}
