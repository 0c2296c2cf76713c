// `npm run bench`: how fast labctl and the API are on a realistic data set. Not a test: it prints
// numbers (and a JSON line for the record). Steps: build, `labctl seed --demo --volume N`, add
// requests awaiting microbiology results plus a CSV completing them, `labctl results import` of that
// CSV, then time the main list and report calls of a running server, as the desk and as a tester.
// Settings: BENCH_VOLUME (generated requests, default 50000), BENCH_ROWS (CSV rows, default 100000),
// BENCH_KEEP=1 keeps the data directory.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VOLUME = Number(process.env.BENCH_VOLUME ?? 50_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labctl-bench-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn' };
const labctl = (args, options = {}) => execa('node', [path.join(root, 'bin/labctl'), ...args], { env, cwd: root, ...options });
const log = (text) => process.stderr.write(`${text}\n`);
const seconds = (ms) => (ms / 1000).toFixed(1);

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

log('Building the server and CLI...');
execSync('npm run --silent build:server', { cwd: root, stdio: 'inherit' });
const { createDb } = await import(path.join(root, 'dist/server/db/knex.js'));
const { systemClock } = await import(path.join(root, 'dist/server/clock.js'));
const { prepareImportBench } = await import(path.join(root, 'dist/fixtures/bench.js'));

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

  log('Timing API calls on a running server...');
  results.api = await timeApi();
} finally {
  if (process.env.BENCH_KEEP) log(`Data kept in ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

const requestsTotal = VOLUME + 8 + results.import.requests;
console.log(`\nData set: ${requestsTotal.toLocaleString('en-US')} requests (${VOLUME.toLocaleString('en-US')} generated + 8 demo + ${results.import.requests.toLocaleString('en-US')} for the import), ${results.seed.analyses.toLocaleString('en-US')} generated analyses`);
console.log(`labctl seed --volume ${VOLUME}: ${results.seed.seconds} s (${results.seed.requestsPerSecond.toLocaleString('en-US')} requests/s)`);
console.log(`labctl results import: ${results.import.rows.toLocaleString('en-US')} rows for ${results.import.requests.toLocaleString('en-US')} requests in ${results.import.seconds} s = ${results.import.rowsPerSecond.toLocaleString('en-US')} rows/s`);
for (const call of results.api) {
  const items = call.total === null ? `${call.items} items` : `${call.items} of ${call.total} items`;
  console.log(`GET ${call.path} as ${call.as}: median ${call.medianMs} ms over ${call.runs} calls (${items}, ${call.kb} kB)`);
}
console.log(JSON.stringify(results));

/**
 * Starts `labctl serve`, logs in as the demo staff member and the demo microbiology tester, and
 * times each list and report call (the lists' X-Total-Count tells how long the whole list is).
 */
async function timeApi() {
  const server = labctl(['serve', '--port', '0'], { reject: false });
  try {
    const base = await new Promise((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (chunk) => {
        text += chunk;
        const m = text.match(/Listening on (http:\/\/\S+)/);
        if (m) resolve(m[1]);
      });
      server.on('exit', () => reject(new Error(`serve exited: ${text}`)));
    });
    const cookies = { staff: await logIn(base, 'staff@demo.lab'), microbiotester: await logIn(base, 'microbiotester@demo.lab') };
    const year = new Date().getUTCFullYear();
    const calls = [
      ['staff', '/requests/pending'],
      ['staff', '/requests/for-release'],
      ['staff', '/requests/for-testing'],
      ['staff', '/requests/released'],
      ['staff', '/requests/released?offset=40000'],
      ['microbiotester', '/requests/for-testing'],
      ['microbiotester', '/requests/released'],
      ['staff', `/api/reports/microbioreport?year=${year}`],
      ['staff', `/api/reports/chemelisareport?year=${year}`],
    ];
    const timings = [];
    for (const [as, call] of calls) {
      const runs = [];
      let body = '';
      let total = null;
      for (let i = 0; i < 5; i += 1) {
        const { value, ms } = await timed(async () => {
          const res = await fetch(`${base}${call}`, { headers: { cookie: cookies[as] } });
          if (!res.ok) throw new Error(`GET ${call}: ${res.status} ${await res.text()}`);
          total = res.headers.get('x-total-count');
          return res.text();
        });
        body = value;
        runs.push(ms);
      }
      runs.sort((a, b) => a - b);
      const parsed = JSON.parse(body);
      const items = Array.isArray(parsed) ? parsed.length : Object.keys(parsed).length;
      timings.push({ path: call, as, runs: runs.length, medianMs: Math.round(runs[2]), items, total: total === null ? null : Number(total), kb: Math.round(body.length / 1024) });
    }
    return timings;
  } finally {
    server.kill('SIGINT');
    await server;
  }
}

/** Password, then the code the outbox mail holds: the two steps a person takes. */
async function logIn(base, email) {
  const post = (p, body) => fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const login = await post('/login', { identifier: email, password: 'demo-password' });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const outbox = path.join(dataDir, 'outbox');
  const newest = fs.readdirSync(outbox).sort().reverse().map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')).find((m) => m.includes(email));
  const code = newest?.match(/is: (\d{6})/)?.[1];
  if (!code) throw new Error('No login code in the outbox');
  const verify = await post('/verify-otp', { username: email, otp: code });
  if (!verify.ok) throw new Error(`verify-otp: ${verify.status} ${await verify.text()}`);
  return verify.headers.get('set-cookie').split(';')[0];
}
