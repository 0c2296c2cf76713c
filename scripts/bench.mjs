// `npm run bench`: how fast labctl and the API are on a realistic data set, on SQLite (one server)
// and on PostgreSQL (two servers on one database, the load shared out between them), each beside a
// bare Koa hello-world measured in the same run (the machine's own limit). Not a test: it prints
// numbers, one table per engine (measurement, baseline, ours, ratio, goal, pass/fail) and a JSON line.
// Per engine: `labctl seed --demo --volume N`, requests awaiting microbiology results plus a CSV
// completing them, `labctl results import` of that CSV, then against running `labctl serve`: every
// screen's first page and search under load, each right after a commit (uncached), a day in the lab
// (readers while writes arrive), submissions, approvals and result saves beside the obvious implementation.
// Settings: BENCH_VOLUME (generated requests, default 50000), BENCH_ROWS (CSV rows, default 100000),
// BENCH_SECONDS (per load measurement, default 5), BENCH_CONNECTIONS (default 50), BENCH_ENGINES
// (default sqlite,postgres), BENCH_DATABASE_URL (PostgreSQL, default the test database on
// 127.0.0.1:5432), BENCH_KEEP=1 keeps the data, BENCH_NO_BUILD=1 uses the current build.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { readsDuring } from './bench/batches.mjs';
import { dayRow, mixOf, prepareDay, submissionsOnly } from './bench/dayInTheLab.mjs';
import { writesBesideObvious } from './bench/obvious.mjs';
import { submissionPayloads } from './bench/payload.mjs';
import { freshDataDir, openTarget } from './bench/engines.mjs';
import { CONNECTIONS, SECONDS, failures, load, median, pct, percentile, rssMb, startBaseline, startProcess, stop, timed } from './bench/load.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VOLUME = Number(process.env.BENCH_VOLUME ?? 50_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean);
const log = (text) => process.stderr.write(`${text}\n`);
const seconds = (ms) => (ms / 1000).toFixed(1);
const labctlIn = (env) => (args) => execa('node', [path.join(root, 'bin/labctl'), ...args], { env, cwd: root });

log('Building the server and CLI...');
if (!process.env.BENCH_NO_BUILD) execSync('npm run --silent build', { cwd: root, stdio: 'inherit' });
const { createDb } = await import(path.join(root, 'dist/server/db/knex.js'));
const { systemClock } = await import(path.join(root, 'dist/server/clock.js'));
const { prepareImportBench } = await import(path.join(root, 'dist/fixtures/bench.js'));
const { createSession } = await import(path.join(root, 'dist/server/services/sessions.js'));
const submissionPayload = await submissionPayloads(root);
const { monthlyReport } = await import(path.join(root, 'dist/server/services/reports.js'));

const results = { volume: VOLUME, rows: ROWS, connections: CONNECTIONS, seconds: SECONDS, engines: {} };
for (const engine of ENGINES) {
  log(`\n=== ${engine}`);
  results.engines[engine] = await benchEngine(engine);
}
const common = await commonRows();

for (const [engine, r] of Object.entries(results.engines)) {
  const instances = engine === 'sqlite' ? 'one server' : 'two servers on one database, connections shared out between them';
  console.log(`\n## ${engine} (${instances})\n`);
  console.log(`Data set: ${(VOLUME + 8 + r.import.requests).toLocaleString('en-US')} requests, ${r.seed.analyses.toLocaleString('en-US')} generated analyses; load: ${CONNECTIONS} connections x ${SECONDS} s`);
  console.log(`labctl seed --volume ${VOLUME}: ${r.seed.seconds} s (${r.seed.requestsPerSecond.toLocaleString('en-US')} requests/s)\n`);
  console.log(table(r.table));
  if (r.day) console.log(`\nA day in the lab (${CONNECTIONS} readers on 4 screens' first pages while writes arrive):\n\n${dayTable(r.day)}`);
}
console.log(`\n## Both engines\n\n${table(common)}`);
console.log(JSON.stringify(results));

/** Rows of cells under `header`, in Markdown, as docs/labctl.md quotes them. */
function markdown(header, lines) {
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function table(rows) {
  return markdown(
    ['Measurement', 'Baseline', 'Ours', 'Ratio', 'Goal', 'Pass'],
    rows.map((r) => [r.name, r.baseline ?? '-', r.ours, r.ratio ?? '-', r.goal, r.pass ? 'pass' : 'FAIL']),
  );
}

function dayTable(rows) {
  const header = ['Submissions/s (approvals, saves, releases)', 'Reads req/s (p99)', 'Baseline', 'Ratio', 'Writes acknowledged / stored / sent', 'Write p99', 'Pass'];
  return markdown(header, rows.map((r) => [
    `${r.mix.submissions} (${r.mix.approvals}, ${r.mix.saves}, ${r.mix.releases})`,
    `${r.reads.rps} (${r.reads.p99} ms)${failures(r.reads)}`,
    `${r.baseline.rps}`,
    pct(r.reads.rps, r.baseline.rps),
    Object.entries(r.writes).map(([k, w]) => `${k} ${w.acknowledged}/${w.stored}/${w.sent}`).join(', '),
    `${Math.round(r.writeP99)} ms`,
    r.pass ? 'pass' : 'FAIL',
  ]));
}

async function benchEngine(engine) {
  const target = await openTarget(engine);
  const labctl = labctlIn(target.env);
  const out = { table: [] };
  const started = [];
  // The data directories of the instances after the first (the target's own is dropped with it).
  const extraDirs = [];
  let baseline;
  try {
    log(`Generating ${VOLUME.toLocaleString('en-US')} requests (labctl seed --demo --volume)...`);
    const seed = await timed(() => labctl(['seed', '--demo', '--volume', String(VOLUME), '--json']));
    out.seed = { seconds: Number(seconds(seed.ms)), requestsPerSecond: Math.round(VOLUME / (seed.ms / 1000)), analyses: JSON.parse(seed.value.stdout).volume.analyses };

    log(`Preparing ${ROWS.toLocaleString('en-US')} rows of microbiology results...`);
    const prepDb = createDb(target.settings);
    const bench = await prepareImportBench(prepDb, systemClock, { rows: ROWS, csvFile: path.join(target.dataDir, 'results.csv') });
    await prepDb.destroy();
    log('Importing (labctl results import)...');
    const run = await timed(() => labctl(['results', 'import', bench.csvFile, '--as', 'microbiotester@demo.lab', '--json']));
    const outcome = JSON.parse(run.value.stdout);
    if (outcome.rows !== bench.rows || outcome.requestsComplete !== bench.requests) throw new Error(`Unexpected import outcome: ${run.value.stdout}`);
    out.import = { rows: outcome.rows, requests: outcome.requests, seconds: Number(seconds(run.ms)), rowsPerSecond: Math.round(outcome.rows / (run.ms / 1000)) };
    out.table.push({
      name: `\`labctl results import\`, ${outcome.rows.toLocaleString('en-US')} rows`,
      ours: `${out.import.seconds} s (${out.import.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
      goal: '< 5 s',
      pass: out.import.seconds < 5,
    });

    baseline = startBaseline(root);
    const { url: baselineUrl, ms: baselineStartMs } = await baseline.listening;
    // Each instance with a data directory of its own, as on machines of its own, logging as deployed
    // (docs/deploy.md: LOG_LEVEL=info, JSON lines to the journal; here a file in that directory).
    for (let i = 0; i < target.instances; i += 1) {
      const dataDir = i === 0 ? target.dataDir : freshDataDir();
      if (i > 0) extraDirs.push(dataDir);
      const env = { ...process.env, ...target.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
      started.push(startProcess('node', [path.join(root, 'bin/labctl'), 'serve', '--port', '0', '--host', '127.0.0.1'], { cwd: root, env, stderrFile: path.join(dataDir, 'serve.log') }));
    }
    const listening = await Promise.all(started.map((s) => s.listening));
    const bases = listening.map((l) => l.url);
    const startMs = listening[0].ms;
    out.table.push({
      name: '`labctl serve` cold start (to listening)',
      baseline: `${Math.round(baselineStartMs)} ms`,
      ours: `${Math.round(startMs)} ms`,
      ratio: `${(startMs / baselineStartMs).toFixed(1)} x`,
      goal: '< 1 s',
      pass: startMs < 1000,
    });
    const idleRss = rssMb(started[0].child.pid);
    out.table.push({ name: '`labctl serve` idle RSS', ours: `${idleRss} MB`, goal: '< 150 MB', pass: idleRss < 150 });

    const db = createDb(target.settings);
    try {
      await measureServers({ engine, target, db, bases, baselineUrl, out, labctl });
    } finally {
      await db.destroy();
    }
    if (engine === 'sqlite') out.fcp = await firstPaint(bases[0]);
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
    if (baseline) await stop(baseline.child);
    await target.drop();
    for (const dir of extraDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function measureServers({ engine, target, db, bases, baselineUrl, out, labctl }) {
  const rows = out.table;
  const userOf = (email) => db('users').where({ email }).first('id', 'role');
  const policy = { idleMinutes: 60, maxHours: 8 };
  const cookieFor = async (id) => `lab_session=${(await createSession(db, systemClock, policy, id)).token}`;
  const cookieOf = async (email) => cookieFor((await userOf(email)).id);
  const staff = await cookieOf('staff@demo.lab');
  const testers = {
    microbiology: await cookieOf('microbiotester@demo.lab'),
    chemistry: await cookieOf('chemtester@demo.lab'),
    'molecular biology': await cookieOf('molbiotester@demo.lab'),
  };
  const busiest = await db('requests').groupBy('client_user_id').orderBy('n', 'desc').first('client_user_id').count({ n: '*' });
  const busyClient = await cookieFor(busiest.client_user_id);
  const year = new Date().getUTCFullYear();
  const q = encodeURIComponent(`${year}-00`);
  const clientName = `client with ${Number(busiest.n).toLocaleString('en-US')} requests`;
  const clientTrack = `/requests/queue/client/${busiest.client_user_id}`;

  // [name, cookie, call, whole]: what the portal's screens call (first page of 50, and a search by
  // control number); a whole list is also measured beside the baseline sending as many bytes.
  const screens = [
    ['pending (staff)', staff, '/requests/queue/pending?limit=50'],
    ['pending, search (staff)', staff, `/requests/queue/pending?limit=50&q=${encodeURIComponent('Meat')}`],
    ['for release (staff)', staff, '/requests/queue/for-release?limit=50'],
    ['for release, search (staff)', staff, `/requests/queue/for-release?limit=50&q=${q}`],
    ['released (staff)', staff, '/requests/released?limit=50'],
    ['released, keyset (staff)', staff, '/requests/queue/released?limit=50'],
    ['released, search (staff)', staff, `/requests/queue/released?limit=50&q=${q}`],
    ['released, a month (staff)', staff, `/requests/queue/released?limit=50&since=${year}-01-01&until=${year}-01-31`],
    ['for testing (staff)', staff, '/requests/queue/for-testing?limit=50'],
    ['for testing, search (staff)', staff, `/requests/queue/for-testing?limit=50&q=${q}`],
    ...Object.entries(testers).flatMap(([discipline, cookie]) => [
      [`for testing (${discipline} tester)`, cookie, '/requests/queue/for-testing?limit=50'],
      [`for testing, finished (${discipline} tester)`, cookie, '/requests/queue/for-testing?limit=50&state=finished'],
    ]),
    ['test results: for release (microbiology tester)', testers.microbiology, '/requests/for-release?limit=50'],
    ['test results: released (microbiology tester)', testers.microbiology, '/requests/released?limit=50'],
    [`track (${clientName})`, busyClient, `${clientTrack}?limit=50`],
    [`track, search (${clientName})`, busyClient, `${clientTrack}?limit=50&q=${q}`],
    [`track, counts (${clientName})`, busyClient, `${clientTrack}/counts`],
    ['audit trail (staff)', staff, '/audit?limit=50&offset=0'],
    ['audit trail, search (staff)', staff, '/audit?limit=50&offset=0&action=results.write'],
    ['turnaround (staff)', staff, '/requests/turnaround?limit=50'],
    ['monthly report (staff)', staff, `/api/reports/microbioreport?year=${year}`],
    ...(engine === 'sqlite'
      ? [
          ['GET /requests/pending, whole list (staff)', staff, '/requests/pending', true],
          ['GET /requests/for-testing, whole list (microbiology tester)', testers.microbiology, '/requests/for-testing', true],
          [`GET /requests/clientrequest, whole list (${clientName})`, busyClient, `/requests/clientrequest/${busiest.client_user_id}`, true],
        ]
      : []),
  ];
  const headersOf = (cookie) => ({ cookie, 'accept-encoding': 'br, gzip' });
  const get = async (base, call, cookie) => {
    const res = await fetch(base + call, { headers: headersOf(cookie) });
    if (!res.ok) throw new Error(`${call}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return res;
  };

  // Warm-up, unmeasured: a second of each call on every server and of the baseline, as servers that
  // have run for a while are (their code compiled, their answers cached). Without it the first rows
  // measured the JIT: on PostgreSQL the first call ran at a fifth to a third of its warm rate.
  log('  warm-up');
  await load(baselineUrl, '/', { duration: 1 });
  for (const [, cookie, call] of screens) await load(bases, call, { headers: headersOf(cookie), duration: 1 });

  for (const [name, cookie, call, whole] of screens) {
    log(`  ${name}`);
    // What went over the wire (fetch decompresses the body, the header tells the compressed size).
    const bytes = Number((await get(bases[0], call, cookie)).headers.get('content-length'));
    const ref = await load(baselineUrl, '/');
    const ours = await load(bases, call, { headers: headersOf(cookie) });
    if (!whole) {
      rows.push({
        name: `${name}: \`GET ${call.replace(/lab_session=\S+/, '')}\`, req/s (p99)`,
        baseline: `${ref.rps} (${ref.p99} ms)`,
        ours: `${ours.rps} (${ours.p99} ms)${failures(ours)}`,
        ratio: pct(ours.rps, ref.rps),
        goal: '>= 30 %, p99 < 50 ms',
        pass: ours.rps >= 0.3 * ref.rps && ours.p99 < 50 && !ours.failed,
      });
      continue;
    }
    // A whole list is bound by its bytes: the baseline answering as many is the machine's limit.
    const same = await load(baselineUrl, `/bytes/${bytes}`);
    rows.push({
      name: `${name}, ${Math.round(bytes / 1024)} KB compressed, req/s (p99)`,
      baseline: `${ref.rps} (${ref.p99} ms); same bytes ${same.rps} (${same.p99} ms)`,
      ours: `${ours.rps} (${ours.p99} ms)${failures(ours)}`,
      ratio: `${pct(ours.rps, ref.rps)}; ${pct(ours.rps, same.rps)} of same bytes`,
      goal: '>= 30 % of the same bytes',
      pass: ours.rps >= 0.3 * same.rps && !ours.failed,
    });
  }

  // Each screen call right after a commit that makes it stale: a request of every status is written
  // (which moves every status's and the data's version), so nothing is remembered and the SQL runs
  // (alternating servers).
  log('  uncached calls, each right after a commit');
  const onePerStatus = (await db('requests').groupBy('status').select(db.raw('min(id) as id'))).map((r) => Number(r.id));
  for (const [name, cookie, call, whole] of screens) {
    if (whole) continue;
    const times = [];
    for (let i = 0; i < 15; i += 1) {
      await db('requests').whereIn('id', onePerStatus).update({ updated_at: db.raw('??', ['updated_at']) });
      times.push((await timed(() => get(bases[i % bases.length], call, cookie))).ms);
    }
    const mid = median(times);
    rows.push({ name: `${name}, right after a commit: median (p90)`, ours: `${mid.toFixed(1)} ms (${percentile(times, 90).toFixed(1)} ms)`, goal: '< 20 ms', pass: mid < 20 });
  }

  // The report service alone (one query of the report_counts counters), beside the GROUP BY over
  // every analysis it replaces; both must give the same numbers.
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

  const client = await userOf('client@demo.lab');
  const cookies = { staff, tester: testers.microbiology, client: await cookieOf('client@demo.lab'), staffPassword: 'demo-password' };

  // A day in the lab: readers at full speed while the day's writes arrive, spread over the servers.
  log('  a day in the lab');
  const work = await prepareDay(db, SECONDS * 3);
  // The day's busiest mix for a while, unmeasured, as the screens' warm-up above: the servers of a
  // day in the lab have been writing for hours, their write paths compiled. Without it the rows
  // measured V8 compiling them: a result save cost half as much CPU after 400 saves as in the first 200.
  await dayRow({ bases, db, cookies, clientId: client.id, payloadOf: submissionPayload, work, mix: mixOf(20), seconds: SECONDS, tag: `DAYWARM-${Date.now()}` });
  out.day = [];
  // The day's mix at 0, 5 and 20 submissions a second, then submissions alone (the measurement).
  for (const mix of [...[0, 5, 20].map(mixOf), ...[1, 5, 20].map(submissionsOnly)]) {
    const ref = await load(baselineUrl, '/');
    const day = await dayRow({ bases, db, cookies, clientId: client.id, payloadOf: submissionPayload, work, mix, seconds: SECONDS, tag: `DAY${mix.submissions}-${mix.saves}-${Date.now()}` });
    const whole = Object.values(day.writes).every((w) => w.acknowledged === w.sent && w.stored === w.sent);
    out.day.push({ mix, baseline: ref, ...day, pass: whole && !day.reads.failed && day.reads.rps >= 0.3 * ref.rps && day.reads.p99 < 50 });
  }

  // Long batches into the running servers' database, each in its own process as an admin runs it,
  // while the screens are read: every batch yields between its chunks.
  log('  screens during long batches');
  const batchRow = (name, run) => ({
    name: `${name}: screens' first pages meanwhile, req/s (p99)`,
    ours: `${run.rps} (${run.p99} ms) over ${seconds(run.ms)} s${failures(run)}`,
    goal: 'p99 < 100 ms',
    pass: run.p99 < 100 && !run.failed,
  });
  const seeding = await readsDuring(bases, staff, () => labctl(['seed', '--volume', String(VOLUME), '--seed', '2', '--json']));
  rows.push(batchRow(`\`labctl seed --volume ${VOLUME}\``, seeding));
  const batch = await prepareImportBench(db, systemClock, { rows: ROWS, csvFile: path.join(target.dataDir, 'results-2.csv'), seed: 3 });
  const importing = await readsDuring(bases, staff, () => labctl(['results', 'import', batch.csvFile, '--as', 'microbiotester@demo.lab', '--json']));
  if (JSON.parse(importing.value.stdout).rows !== batch.rows) throw new Error(`Unexpected import outcome: ${importing.value.stdout}`);
  rows.push(batchRow(`\`labctl results import\`, ${batch.rows.toLocaleString('en-US')} rows`, importing));

  // Writes under load beside the obvious implementation on the same data (scripts/bench/obvious.mjs):
  // submissions, approvals (numbers unique and gap-free) and result saves; every acknowledged write stored.
  log('  writes beside the obvious implementation');
  rows.push(...(await writesBesideObvious({ settings: target.settings, instances: bases.length, root, ours: bases, db, cookies, clientId: client.id })));
}

/** First contentful paint of /login in Chromium, cold cache (median of three). */
async function firstPaint(base) {
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
    return median(paints);
  } finally {
    await browser.close();
  }
}

/** What does not depend on the engine: the page's scripts, its first paint, `labctl --help`. */
async function commonRows() {
  const rows = [];
  const index = fs.readFileSync(path.join(root, 'dist/ui/index.html'), 'utf8');
  const scripts = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gzKb = scripts.reduce((sum, s) => sum + gzipSync(fs.readFileSync(path.join(root, 'dist/ui', s))).length, 0) / 1024;
  rows.push({ name: `Login page JS, gzipped (${scripts.length} files)`, ours: `${gzKb.toFixed(1)} KB`, goal: '<= 100 KB', pass: gzKb <= 100 });
  const fcp = results.engines.sqlite?.fcp;
  if (fcp !== undefined) rows.push({ name: 'First contentful paint of /login (cold cache)', ours: `${Math.round(fcp)} ms`, goal: '< 500 ms', pass: fcp < 500 });
  const labctl = labctlIn(process.env);
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
  return rows;
}
