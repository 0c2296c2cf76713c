// `npm run bench`: how fast labctl and the API are on a realistic data set, beside a bare Koa
// hello-world measured in the same run (the machine's own limit). Not a test: it prints numbers, a
// table (measurement, baseline, ours, ratio, goal, pass/fail) and a JSON line for the record.
// Steps: build, `labctl seed --demo --volume N`, requests awaiting microbiology results plus a CSV
// completing them, `labctl results import` of that CSV, then against a running `labctl serve`:
// autocannon on the busiest calls, alternating with the baseline, and request submission.
// Settings: BENCH_VOLUME (generated requests, default 50000), BENCH_ROWS (CSV rows, default 100000),
// BENCH_SECONDS (per load measurement, default 5), BENCH_CONNECTIONS (default 50), BENCH_KEEP=1
// keeps the data directory, BENCH_NO_BUILD=1 uses the current build.
import { execSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { execa } from 'execa';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VOLUME = Number(process.env.BENCH_VOLUME ?? 50_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labctl-bench-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn' };
const labctl = (args, options = {}) => execa('node', [path.join(root, 'bin/labctl'), ...args], { env, cwd: root, ...options });
const log = (text) => process.stderr.write(`${text}\n`);
const seconds = (ms) => (ms / 1000).toFixed(1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

log('Building the server and CLI...');
if (!process.env.BENCH_NO_BUILD) execSync('npm run --silent build', { cwd: root, stdio: 'inherit' });
const { createDb } = await import(path.join(root, 'dist/server/db/knex.js'));
const { systemClock } = await import(path.join(root, 'dist/server/clock.js'));
const { prepareImportBench } = await import(path.join(root, 'dist/fixtures/bench.js'));
const { createSession } = await import(path.join(root, 'dist/server/services/sessions.js'));
const { buildSubmitPayload } = await import(path.join(root, 'dist/server/domain/requestPayload.js'));
const { monthlyReport } = await import(path.join(root, 'dist/server/services/reports.js'));

const results = { volume: VOLUME, rows: ROWS };
try {
  log(`Generating ${VOLUME.toLocaleString('en-US')} requests (labctl seed --demo --volume)...`);
  const seed = await timed(() => labctl(['seed', '--demo', '--volume', String(VOLUME), '--json']));
  const volume = JSON.parse(seed.value.stdout).volume;
  results.seed = { seconds: Number(seconds(seed.ms)), requestsPerSecond: Math.round(VOLUME / (seed.ms / 1000)), analyses: volume.analyses };

  log(`Preparing ${ROWS.toLocaleString('en-US')} rows of microbiology results...`);
  const db = createDb({ client: 'sqlite3', filename: path.join(dataDir, 'lab.sqlite') });
  const bench = await prepareImportBench(db, systemClock, { rows: ROWS, csvFile: path.join(dataDir, 'results.csv') });
  await db.destroy();

  log('Importing (labctl results import)...');
  const run = await timed(() => labctl(['results', 'import', bench.csvFile, '--as', 'microbiotester@demo.lab', '--json']));
  const outcome = JSON.parse(run.value.stdout);
  if (outcome.rows !== bench.rows || outcome.requestsComplete !== bench.requests) {
    throw new Error(`Unexpected import outcome: ${run.value.stdout}`);
  }
  results.import = { rows: outcome.rows, requests: outcome.requests, seconds: Number(seconds(run.ms)), rowsPerSecond: Math.round(outcome.rows / (run.ms / 1000)) };

  log('Measuring against the bare Koa baseline...');
  results.table = await measure();
} finally {
  if (process.env.BENCH_KEEP) log(`Data kept in ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

const requestsTotal = VOLUME + 8 + results.import.requests;
console.log(`\nData set: ${requestsTotal.toLocaleString('en-US')} requests (${VOLUME.toLocaleString('en-US')} generated + 8 demo + ${results.import.requests.toLocaleString('en-US')} for the import), ${results.seed.analyses.toLocaleString('en-US')} generated analyses; load: ${CONNECTIONS} connections x ${SECONDS} s`);
console.log(`labctl seed --volume ${VOLUME}: ${results.seed.seconds} s (${results.seed.requestsPerSecond.toLocaleString('en-US')} requests/s)\n`);
console.log(table(results.table));
console.log(JSON.stringify(results));

/** A Markdown table, as docs/labctl.md quotes it. */
function table(rows) {
  const header = ['Measurement', 'Baseline', 'Ours', 'Ratio', 'Goal', 'Pass'];
  const lines = rows.map((r) => [r.name, r.baseline ?? '-', r.ours, r.ratio ?? '-', r.goal, r.pass ? 'pass' : 'FAIL']);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function startProcess(command, args, options) {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, ...options });
  const listening = new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const m = text.match(/Listening on (http:\/\/\S+)/);
      if (m) resolve({ url: m[1].replace('localhost', '127.0.0.1'), ms: performance.now() - started });
    });
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('exit', () => reject(new Error(`${command} exited: ${text}`)));
  });
  return { child, listening };
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGINT');
  });
}

function rssMb(pid) {
  return Math.round(Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024);
}

/** autocannon on one call: requests/second and p99 latency (ms); non-2xx answers make it fail. */
async function load(url, options = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, total: result.requests.total };
}

/**
 * The same API as ours would have at its simplest: Koa answering a small JSON body. GET /bytes/N
 * answers N random bytes instead: the machine's limit for an answer as large as a whole list, where
 * the load generator reading the bytes, not the server, sets the pace.
 */
function baselineSource() {
  return `
import Koa from 'koa';
import { randomBytes } from 'node:crypto';
const app = new Koa();
const sized = new Map();
app.use((ctx) => {
  const n = /^\\/bytes\\/(\\d+)$/.exec(ctx.path)?.[1];
  if (n && !sized.has(n)) sized.set(n, randomBytes(Number(n)));
  ctx.body = n ? sized.get(n) : { hello: 'world' };
});
const server = app.listen(0, '127.0.0.1', () => console.log('Listening on http://127.0.0.1:' + server.address().port));
`;
}

async function measure() {
  const rows = [];
  const pct = (ours, base) => `${Math.round((100 * ours) / base)} %`;

  // Cold start and idle memory of `labctl serve`; the baseline's start, timed the same way, is the floor.
  const baseline = startProcess('node', ['--input-type=module', '-e', baselineSource()]);
  const { url: baselineUrl, ms: baselineStartMs } = await baseline.listening;
  const server = startProcess('node', [path.join(root, 'bin/labctl'), 'serve', '--port', '0']);
  const { url: base, ms: startMs } = await server.listening;
  const idleRss = rssMb(server.child.pid);
  rows.push({
    name: '`labctl serve` cold start (to listening)',
    baseline: `${Math.round(baselineStartMs)} ms`,
    ours: `${Math.round(startMs)} ms`,
    ratio: `${(startMs / baselineStartMs).toFixed(1)} x`,
    goal: '< 1 s',
    pass: startMs < 1000,
  });
  rows.push({ name: '`labctl serve` idle RSS', ours: `${idleRss} MB`, goal: '< 150 MB', pass: idleRss < 150 });

  const db = createDb({ client: 'sqlite3', filename: path.join(dataDir, 'lab.sqlite') });
  try {
    const userOf = (email) => db('users').where({ email }).first('id', 'role');
    const policy = { idleMinutes: 60, maxHours: 8 };
    const cookieOf = async (email) => `lab_session=${(await createSession(db, systemClock, policy, (await userOf(email)).id)).token}`;
    const staff = await cookieOf('staff@demo.lab');
    const tester = await cookieOf('microbiotester@demo.lab');
    const busiest = await db('requests').groupBy('client_user_id').orderBy('n', 'desc').first('client_user_id').count({ n: '*' });
    const busyClient = `lab_session=${(await createSession(db, systemClock, policy, busiest.client_user_id)).token}`;
    const year = new Date().getUTCFullYear();

    const clientName = `client with ${Number(busiest.n).toLocaleString('en-US')} requests`;
    // [name, cookie, call, whole]: a whole list is also measured beside the baseline sending as many bytes.
    const calls = [
      // What the portal's screens call: the work queues paged by keyset (100 rows a page).
      ['GET /requests/queue/pending, first page (staff)', staff, '/requests/queue/pending'],
      ['GET /requests/queue/for-testing, first page (staff)', staff, '/requests/queue/for-testing'],
      ['GET /requests/queue/for-testing, first page (microbiology tester)', tester, '/requests/queue/for-testing'],
      ['GET /requests/queue/for-release, first page (staff)', staff, '/requests/queue/for-release'],
      ['GET /requests/released, first page (staff)', staff, '/requests/released'],
      [`GET /requests/queue/client, first page (${clientName})`, busyClient, `/requests/queue/client/${busiest.client_user_id}`],
      ['GET /api/reports/microbioreport (staff)', staff, `/api/reports/microbioreport?year=${year}`],
      // The SPEC calls answering whole lists, kept for scripts.
      ['GET /requests/pending, whole list (staff)', staff, '/requests/pending', true],
      ['GET /requests/for-testing, whole list (staff)', staff, '/requests/for-testing', true],
      ['GET /requests/for-testing, whole list (microbiology tester)', tester, '/requests/for-testing', true],
      ['GET /requests/for-release, whole list (staff)', staff, '/requests/for-release', true],
      [`GET /requests/clientrequest, whole list (${clientName})`, busyClient, `/requests/clientrequest/${busiest.client_user_id}`, true],
    ];
    for (const [name, cookie, call, whole] of calls) {
      log(`  ${name}`);
      const headers = { cookie, 'accept-encoding': 'br, gzip' };
      // Calls the last load left queued for the database are answered before this one starts.
      await (await fetch(`${base}/readyz`)).arrayBuffer();
      const first = await fetch(base + call, { headers });
      if (!first.ok) throw new Error(`${call}: ${first.status} ${await first.text()}`);
      // What went over the wire (fetch decompresses the body, the header tells the compressed size).
      const bytes = Number(first.headers.get('content-length'));
      await first.arrayBuffer();
      const ref = await load(baselineUrl);
      const ours = await load(base + call, { headers });
      if (!whole) {
        rows.push({
          name: `${name}, req/s (p99)`,
          baseline: `${ref.rps} (${ref.p99} ms)`,
          ours: `${ours.rps} (${ours.p99} ms)`,
          ratio: pct(ours.rps, ref.rps),
          goal: '>= 30 %, p99 < 50 ms',
          pass: ours.rps >= 0.3 * ref.rps && ours.p99 < 50,
        });
        continue;
      }
      // A whole list is bound by its bytes: the baseline answering as many is the machine's limit.
      const same = await load(`${baselineUrl}/bytes/${bytes}`);
      rows.push({
        name: `${name}, ${Math.round(bytes / 1024)} KB compressed, req/s (p99)`,
        baseline: `${ref.rps} (${ref.p99} ms); same bytes ${same.rps} (${same.p99} ms)`,
        ours: `${ours.rps} (${ours.p99} ms)`,
        ratio: `${pct(ours.rps, ref.rps)}; ${pct(ours.rps, same.rps)} of same bytes`,
        goal: '>= 30 % of the same bytes',
        pass: ours.rps >= 0.3 * same.rps,
      });
    }

    // One report call at a time (its own latency, not the queue's).
    const reportMs = [];
    for (let i = 0; i < 20; i += 1) {
      const { ms, value } = await timed(() => fetch(`${base}/api/reports/microbioreport?year=${year}`, { headers: { cookie: staff } }));
      await value.arrayBuffer();
      reportMs.push(ms);
    }
    const analyses = Number((await db('analyses').count({ n: '*' }).first()).n);
    const single = median(reportMs);
    rows.push({ name: `Monthly report, one HTTP call (${analyses.toLocaleString('en-US')} analyses), median`, ours: `${single.toFixed(1)} ms`, goal: '< 20 ms', pass: single < 20 });
    // The service alone (one query of the report_counts counters), beside the GROUP BY over every
    // analysis it replaces; both must give the same numbers.
    const serviceMs = [];
    let report;
    for (let i = 0; i < 20; i += 1) serviceMs.push((await timed(async () => (report = await monthlyReport(db, 'microbio', year)))).ms);
    const grouped = await timed(() =>
      db('analyses as a').join('requests as r', 'r.id', 'a.request_id').whereNot('r.status', 'REJECTED').whereIn('a.remark', ['positive', 'negative'])
        .where('a.result_group', 'microbio').whereBetween('a.report_month', [`${year}-01`, `${year}-12`])
        .groupBy('a.report_month', 'a.test_code', 'a.remark').select('a.report_month', 'a.test_code', 'a.remark').count({ n: '*' }),
    );
    const fromCounters = Object.values(report).flatMap((byMonth) => Object.values(byMonth)).reduce((sum, c) => sum + c.positive + c.negative, 0);
    const fromGroupBy = grouped.value.reduce((sum, row) => sum + Number(row.n), 0);
    const service = median(serviceMs);
    rows.push({
      name: `Monthly report service, counters (baseline: the GROUP BY, ${fromGroupBy.toLocaleString('en-US')} analyses counted)`,
      baseline: `${grouped.ms.toFixed(1)} ms`,
      ours: `${service.toFixed(1)} ms`,
      ratio: fromCounters === fromGroupBy ? 'same totals' : `DIFFERENT: ${fromCounters} vs ${fromGroupBy}`,
      goal: '< 20 ms, same numbers',
      pass: service < 20 && fromCounters === fromGroupBy,
    });

    // Submission: the demo client submits under load; every acknowledged request must be stored.
    log('  request submission');
    const client = await db('users').where({ email: 'client@demo.lab' }).first('id');
    const clientCookie = await cookieOf('client@demo.lab');
    const payload = buildSubmitPayload(
      {
        representativeName: 'democlient', contactNumber: '639171234567', emailAddress: 'client@demo.lab', companyName: 'Demo Meat Traders Inc.',
        clientClassification: 'Importer', ltoNumber: 'LTO-2026-001', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in',
        lotBatchNo: 'LOT-BENCH', sampleSource: 'Cold storage', productionDate: '', expiryDate: '', samplingDate: '', samplerName: 'Bench',
        samples: ['Beef loin', 'Pork belly'], tests: ['eColi', 'salmonellaSp'], gramPositiveAst: '', gramNegativeAst: '',
      },
      new Date(),
    );
    const before = Number((await db('requests').count({ n: '*' }).first()).n);
    const ref = await load(baselineUrl);
    const submitted = await load(`${base}/requests/submitrequest/${client.id}`, {
      method: 'POST',
      headers: { cookie: clientCookie, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const stored = Number((await db('requests').count({ n: '*' }).first()).n) - before;
    rows.push({
      name: `POST /requests/submitrequest, req/s (${submitted.total} acknowledged, ${stored} stored)`,
      baseline: `${ref.rps}`,
      ours: `${submitted.rps}`,
      ratio: pct(submitted.rps, ref.rps),
      goal: '>= 500/s, all stored',
      pass: submitted.rps >= 500 && stored >= submitted.total,
    });
  } finally {
    await db.destroy();
    await stop(baseline.child);
  }

  // The login page's scripts, as a browser downloads them (gzip).
  const index = fs.readFileSync(path.join(root, 'dist/ui/index.html'), 'utf8');
  const scripts = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gzKb = scripts.reduce((sum, s) => sum + gzipSync(fs.readFileSync(path.join(root, 'dist/ui', s))).length, 0) / 1024;
  rows.push({ name: `Login page JS, gzipped (${scripts.length} files)`, ours: `${gzKb.toFixed(1)} KB`, goal: '<= 100 KB', pass: gzKb <= 100 });

  // First contentful paint of /login in Chromium, cold cache.
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const paints = [];
    for (let i = 0; i < 3; i += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.getByRole('heading', { name: 'Log In' }).waitFor();
      // The paint entry can arrive after the heading is in the DOM: wait for it (buffered observer).
      paints.push(
        await page.evaluate(
          () =>
            new Promise((resolve) => {
              new PerformanceObserver((list) => {
                const entry = list.getEntriesByName('first-contentful-paint')[0];
                if (entry) resolve(entry.startTime);
              }).observe({ type: 'paint', buffered: true });
              setTimeout(() => resolve(Number.NaN), 5_000);
            }),
        ),
      );
      await context.close();
    }
    const fcp = median(paints);
    rows.push({ name: 'First contentful paint of /login (cold cache)', ours: `${Math.round(fcp)} ms`, goal: '< 500 ms', pass: fcp < 500 });
  } finally {
    await browser.close();
    await stop(server.child);
  }

  // labctl --help, beside Node starting and doing nothing (the floor).
  const helps = [];
  const bare = [];
  for (let i = 0; i < 5; i += 1) {
    bare.push((await timed(() => execa('node', ['-e', '0']))).ms);
    helps.push((await timed(() => labctl(['--help']))).ms);
  }
  const help = median(helps);
  const nodeStart = median(bare);
  rows.push({
    name: '`labctl --help` (baseline: `node -e 0`)',
    baseline: `${Math.round(nodeStart)} ms`,
    ours: `${Math.round(help)} ms`,
    ratio: `${(help / nodeStart).toFixed(1)} x`,
    goal: '< 300 ms',
    pass: help < 300,
  });
  rows.push({
    name: `\`labctl results import\`, ${results.import.rows.toLocaleString('en-US')} rows`,
    ours: `${results.import.seconds} s (${results.import.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    goal: '< 5 s',
    pass: results.import.seconds < 5,
  });
  return rows;
}
