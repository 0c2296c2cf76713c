// The obvious implementation of our three busiest write calls, for `npm run bench` to measure ours
// beside (issue #22): a bare Koa app on the same database and schema, each call one transaction of
// plain SQL, no batching, no caching. SQLite: better-sqlite3, one connection (WAL, synchronous=FULL);
// PostgreSQL: a pg Pool of 10. Started by obvious.mjs with OBVIOUS_SETTINGS (the database, JSON) and
// OBVIOUS_ROOT (whose dist/ gives the payload schema, fees and planned analyses: the same validation and
// arithmetic as ours, pure code). Prints "Listening on http://127.0.0.1:PORT"; SIGINT stops it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import Koa from 'koa';

const settings = JSON.parse(process.env.OBVIOUS_SETTINGS);
const dist = (file) => import(path.join(process.env.OBVIOUS_ROOT, 'dist/server/domain', file));
const { SubmitRequestPayload } = await dist('requestPayload.js');
const { estimateFee, expectedCompletionDate } = await dist('fees.js');
const { plannedAnalyses } = await dist('requestShape.js');

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * The database as the handlers see it: `q` ({ one, all, run } of SQL with `?` placeholders) outside
 * a transaction, `transaction(work)` running `work(q)` in one, `forUpdate` the row lock clause.
 */
async function openSqlite(filename) {
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(filename);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = FULL');
  conn.pragma('busy_timeout = 5000');
  conn.pragma('foreign_keys = ON');
  const statements = new Map();
  const prepared = (sql) => statements.get(sql) ?? statements.set(sql, conn.prepare(sql)).get(sql);
  const q = {
    one: (sql, params = []) => prepared(sql).get(...params),
    all: (sql, params = []) => prepared(sql).all(...params),
    run: (sql, params = []) => prepared(sql).run(...params).changes,
  };
  // One connection holds one transaction at a time: calls wait their turn (as a pool of one would).
  let turn = Promise.resolve();
  return {
    q,
    forUpdate: '',
    transaction(work) {
      const run = turn.then(async () => {
        conn.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(q);
          conn.exec('COMMIT');
          return result;
        } catch (error) {
          if (conn.inTransaction) conn.exec('ROLLBACK');
          throw error;
        }
      });
      turn = run.catch(() => undefined);
      return run;
    },
    close: async () => conn.close(),
  };
}

async function openPostgres({ connectionString, searchPath }) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString, max: 10, options: `-c search_path=${searchPath}` });
  const numbered = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${(n += 1)}`);
  };
  const on = (client) => ({
    one: async (sql, params = []) => (await client.query(numbered(sql), params)).rows[0],
    all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows,
    run: async (sql, params = []) => (await client.query(numbered(sql), params)).rowCount,
  });
  return {
    q: on(pool),
    forUpdate: ' FOR UPDATE',
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

const db = settings.client === 'pg' ? await openPostgres(settings) : await openSqlite(settings.filename);

/** `INSERT INTO table (columns) VALUES (...), (...)` of `rows` (arrays in column order), with RETURNING `returning`. */
function insertSql(table, columns, count, returning = '') {
  const one = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(count).fill(one).join(', ')}${returning && ` RETURNING ${returning}`}`;
}

const AUDIT = ['at', 'actor_user_id', 'action', 'request_id', 'details', 'ip'];
const audit = (q, row) => q.run(insertSql('audit_log', AUDIT, 1), [row.at, row.actor, row.action, row.requestId, JSON.stringify(row.details), row.ip]);

const OUTBOX = ['recipient', 'subject', 'text_body', 'html_body', 'state', 'attempts', 'next_attempt_ms', 'claimed_until_ms', 'request_id', 'actor_user_id', 'created_at'];
function queueMail(q, { to, subject, text, requestId, actor }) {
  const now = Date.now();
  return q.run(insertSql('outbox', OUTBOX, 1), [to, subject, text, `<p>${text}</p>`, 'pending', 0, now, 0, requestId, actor, new Date(now).toISOString()]);
}

/** The signed-in user ({ id, role }) of the lab_session cookie: one indexed query; 401 without one. */
async function userOf(ctx) {
  const token = ctx.cookies.get('lab_session');
  if (!token) throw new HttpError(401, 'Please log in.');
  const row = await db.q.one(
    `SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ? AND s.expires_at > ? AND u.deletion_status = 'ACTIVE'`,
    [createHash('sha256').update(token).digest('hex'), new Date().toISOString()],
  );
  if (!row) throw new HttpError(401, 'Please log in.');
  return { id: Number(row.id), role: row.role };
}

function requireRole(user, role) {
  if (user.role !== role) throw new HttpError(403, 'You may not do this.');
}

const REQUEST_COLUMNS = [
  'client_user_id', 'status', 'representative_name', 'contact_number', 'email_address', 'company_name', 'client_classification',
  'lto_number', 'testing_purpose', 'other_testing_purpose', 'sample_category', 'lot_batch_no', 'sample_source', 'production_date',
  'expiry_date', 'sampling_date', 'sampler_name', 'gram_positive_ast', 'gram_negative_ast', 'estimated_fee', 'due_date',
  'submission_date', 'created_at', 'updated_at',
];

async function submit(ctx, user, clientId, body) {
  requireRole(user, 'client');
  if (user.id !== clientId) throw new HttpError(403, 'You may not do this.');
  const parsed = SubmitRequestPayload.safeParse(body);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const input = parsed.data;
  const now = new Date().toISOString();
  const fee = estimateFee({ tests: input.tests, sampleCount: input.samples.length, gramPositiveAst: input.gramPositiveAst, gramNegativeAst: input.gramNegativeAst }).total;
  const dueDate = expectedCompletionDate(now.slice(0, 10), input.tests);
  const requestId = await db.transaction(async (q) => {
    const profile = await q.one('SELECT u.email, c.company_name FROM users u JOIN clients c ON c.user_id = u.id WHERE u.id = ?', [user.id]);
    if (!profile) throw new HttpError(403, 'You may not do this.');
    const row = await q.one(insertSql('requests', REQUEST_COLUMNS, 1, 'id'), [
      user.id, 'PENDING_REVIEW', input.representativeName, input.contactNumber, profile.email, profile.company_name, input.clientClassification,
      input.ltoNumber, input.testingPurpose, input.otherTestingPurpose, input.sampleCategory, input.lotBatchNo, input.sampleSource,
      input.productionDate, input.expiryDate, input.samplingDate, input.samplerName, input.gramPositiveAst, input.gramNegativeAst,
      fee, dueDate, now, now, now,
    ]);
    const id = Number(row.id);
    await q.run(insertSql('request_tests', ['request_id', 'test_code'], input.tests.length), input.tests.flatMap((code) => [id, code]));
    await q.run(
      insertSql('samples', ['request_id', 'position', 'sample_type_description'], input.samples.length),
      input.samples.flatMap((description, i) => [id, i + 1, description]),
    );
    await audit(q, { at: now, actor: user.id, action: 'request.submit', requestId: id, ip: ctx.ip, details: { after: { status: 'PENDING_REVIEW', tests: input.tests, samples: input.samples.length, estimatedFee: fee, dueDate } } });
    await queueMail(q, { to: profile.email, subject: 'Request received', text: `We received your request ${id}.`, requestId: id, actor: user.id });
    return id;
  });
  ctx.status = 201;
  ctx.body = { requestId };
}

const ANALYSIS_COLUMNS = ['request_id', 'sample_id', 'test_code', 'family', 'result_group'];

async function approve(ctx, user, requestId) {
  requireRole(user, 'staff');
  const controlNumber = await db.transaction(async (q) => {
    const request = await q.one(`SELECT id, status, email_address FROM requests WHERE id = ?${db.forUpdate}`, [requestId]);
    if (!request) throw new HttpError(404, `There is no request ${requestId}.`);
    if (request.status !== 'PENDING_REVIEW') throw new HttpError(409, `Request ${requestId} is not pending review.`);
    const now = new Date().toISOString();
    const year = Number(now.slice(0, 4));
    // Gap-free: the year's counter row, taken in this transaction (a rollback gives the number back).
    const counter = await q.one(
      `INSERT INTO control_number_counters (year, last_value) VALUES (?, 1)
       ON CONFLICT (year) DO UPDATE SET last_value = control_number_counters.last_value + 1 RETURNING last_value`,
      [year],
    );
    const number = `${year}-${String(counter.last_value).padStart(4, '0')}`;
    await q.run('UPDATE requests SET status = ?, control_number = ?, approved_by = ?, approved_at = ?, updated_at = ? WHERE id = ?', ['FOR_TESTING', number, user.id, now, now, requestId]);
    const samples = (await q.all('SELECT id FROM samples WHERE request_id = ? ORDER BY position', [requestId])).map((s) => Number(s.id));
    const tests = (await q.all('SELECT test_code FROM request_tests WHERE request_id = ?', [requestId])).map((t) => t.test_code);
    const planned = plannedAnalyses(samples, tests);
    if (planned.length > 0) {
      await q.run(insertSql('analyses', ANALYSIS_COLUMNS, planned.length), planned.flatMap((a) => [requestId, a.sampleId, a.testCode, a.family, a.group]));
    }
    await audit(q, { at: now, actor: user.id, action: 'request.approve', requestId, ip: ctx.ip, details: { before: { status: 'PENDING_REVIEW' }, after: { status: 'FOR_TESTING', controlNumber: number } } });
    await queueMail(q, { to: request.email_address, subject: `Request ${number} approved`, text: `Your request was approved as ${number}.`, requestId, actor: user.id });
    return number;
  });
  ctx.body = { controlNumber };
}

/** `{ eColi, eColiRemarks?, eColiAnalysisDate? }`: an empty value clears the result. */
function eColiResult(body) {
  const value = typeof body?.eColi === 'string' ? body.eColi.trim() : null;
  const remark = body?.eColiRemarks ?? '';
  const date = body?.eColiAnalysisDate ?? null;
  if (value === null || value.length > 500) throw new HttpError(400, 'eColi: must be text of at most 500 characters');
  if (!['', 'positive', 'negative', null].includes(remark)) throw new HttpError(400, "eColiRemarks: must be '', 'positive' or 'negative'");
  if (date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new HttpError(400, 'eColiAnalysisDate: must be a date (YYYY-MM-DD)');
  return value === '' ? { value: null, remark: null, date: null } : { value, remark: remark || null, date };
}

const ACCEPTS_RESULTS = ['FOR_TESTING', 'FOR_RELEASE'];

async function saveResult(ctx, user, sampleId, body) {
  requireRole(user, 'microbiotester');
  const result = eColiResult(body);
  await db.transaction(async (q) => {
    const analysis = await q.one("SELECT id, request_id, value, remark FROM analyses WHERE sample_id = ? AND test_code = 'eColi'", [sampleId]);
    if (!analysis) throw new HttpError(404, `Sample ${sampleId} has no E. coli test.`);
    const requestId = Number(analysis.request_id);
    const request = await q.one(`SELECT status FROM requests WHERE id = ?${db.forUpdate}`, [requestId]);
    if (!ACCEPTS_RESULTS.includes(request.status)) throw new HttpError(409, `Results of request ${requestId} can no longer be changed.`);
    const now = new Date().toISOString();
    const entered = result.value !== null;
    await q.run('UPDATE analyses SET value = ?, remark = ?, analysis_date = ?, report_month = ?, entered_by = ?, entered_at = ? WHERE id = ?', [
      result.value, result.remark, result.date, entered ? (result.date ?? now).slice(0, 7) : null, entered ? user.id : null, entered ? now : null, analysis.id,
    ]);
    const open = await q.one('SELECT COUNT(*) AS n FROM analyses WHERE request_id = ? AND (value IS NULL OR remark IS NULL)', [requestId]);
    const status = Number(open.n) === 0 ? 'FOR_RELEASE' : 'FOR_TESTING';
    if (status !== request.status) await q.run('UPDATE requests SET status = ?, updated_at = ? WHERE id = ?', [status, now, requestId]);
    await audit(q, {
      at: now, actor: user.id, action: 'results.write', requestId, ip: ctx.ip,
      details: {
        ...(status !== request.status ? { status: { before: request.status, after: status } } : {}),
        results: [{ sampleId, testCode: 'eColi', before: { value: analysis.value, remark: analysis.remark }, after: { value: result.value, remark: result.remark } }],
      },
    });
  });
  ctx.body = { sampleId };
}

async function jsonBody(ctx) {
  let text = '';
  for await (const chunk of ctx.req) text += chunk;
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, 'The body is not JSON.');
  }
}

const ROUTES = [
  ['POST', /^\/requests\/submitrequest\/(\d+)$/, submit],
  ['PUT', /^\/requests\/approve\/(\d+)$/, approve],
  ['PUT', /^\/microbioTestResults\/(\d+)$/, saveResult],
];

const app = new Koa();
app.use(async (ctx) => {
  try {
    const route = ROUTES.find(([method, pattern]) => method === ctx.method && pattern.test(ctx.path));
    if (!route) throw new HttpError(404, 'Not found.');
    const user = await userOf(ctx);
    await route[2](ctx, user, Number(route[1].exec(ctx.path)[1]), await jsonBody(ctx));
  } catch (error) {
    if (!(error instanceof HttpError)) console.error(error);
    ctx.status = error instanceof HttpError ? error.status : 503;
    ctx.body = { message: error instanceof HttpError ? error.message : 'The database is busy; please try again.' };
  }
});

const server = app.listen(0, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${server.address().port}`));
process.once('SIGINT', () => {
  server.close(() => db.close().then(() => process.exit(0)));
  server.closeAllConnections();
});
