// Load generation for `npm run bench`: autocannon against one server or several behind a
// connection round robin, the bare Koa baseline, and starting and stopping processes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
export const pct = (ours, base) => `${Math.round((100 * ours) / base)} %`;
/** How a row names the failed calls of a run, if any. */
export const failures = (run) => (run.failed ? `; ${run.failed} failed` : '');

export async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/**
 * Starts a process that prints "Listening on <url>"; resolves with its URL and how long it took.
 * `stderrFile`: its stderr goes to that file, as a server's logs go to the journal, instead of into
 * this process (a server logging every call at info would otherwise load the load generator).
 */
export function startProcess(command, args, { stderrFile, ...options } = {}) {
  const started = performance.now();
  const stderr = stderrFile ? fs.openSync(stderrFile, 'a') : 'pipe';
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', stderr] });
  if (stderrFile) fs.closeSync(stderr);
  const listening = new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const m = text.match(/Listening on (http:\/\/\S+)/);
      if (m) resolve({ url: m[1].replace('localhost', '127.0.0.1'), ms: performance.now() - started });
    });
    child.stderr?.on('data', (chunk) => (text += chunk));
    // Once listening the promise has settled, and an exit (the caller's stop) changes nothing.
    child.on('exit', () => reject(new Error(`${command} exited: ${text}${stderrFile ? tailOf(stderrFile) : ''}`)));
  });
  return { child, listening };
}

/** The last `bytes` of a file (a server's log may be gigabytes by the end of a bench). */
function tailOf(file, bytes = 2000) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(bytes, size));
    fs.readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString();
  } finally {
    fs.closeSync(fd);
  }
}

export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGINT');
  });
}

export function rssMb(pid) {
  return Math.round(Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024);
}

/**
 * autocannon on `path` of every server in `bases` at once, the connections shared out among them as
 * a round robin of connections would: requests/second in all, the worst p99 (ms), answers in all,
 * and `failed`, the non-2xx answers and errors (timeouts included), which fail the row that reads
 * them: the run goes on, so one slow call on a busy machine does not lose the whole table.
 */
export async function load(bases, path, options = {}) {
  const list = Array.isArray(bases) ? bases : [bases];
  const connections = Math.max(1, Math.round((options.connections ?? CONNECTIONS) / list.length));
  // A run of `amount` calls has no duration.
  const length = options.amount ? {} : { duration: SECONDS };
  // A run of `amount` calls ends at autocannon's next one-second tick after its last answer: its rate
  // is its calls over the time to that last answer.
  const started = performance.now();
  let lastAnswer = started;
  const runs = list.map((base) => autocannon({ url: base + path, ...length, ...options, connections }));
  if (options.amount) for (const run of runs) run.on('response', () => (lastAnswer = performance.now()));
  const results = await Promise.all(runs);
  return {
    failed: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    rps: Math.round(options.amount ? results.reduce((sum, r) => sum + r.requests.total, 0) / ((lastAnswer - started) / 1000) : results.reduce((sum, r) => sum + r.requests.average, 0)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    total: results.reduce((sum, r) => sum + r.requests.total, 0),
  };
}

/**
 * The same API as ours would have at its simplest: Koa answering a small JSON body. GET /bytes/N
 * answers N random bytes instead: the machine's limit for an answer as large as a whole list, where
 * the load generator reading the bytes, not the server, sets the pace.
 */
export function startBaseline(root) {
  const source = `
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
  return startProcess('node', ['--input-type=module', '-e', source], { cwd: root });
}
