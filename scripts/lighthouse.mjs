// Lighthouse over the portal's main screens: prints the four category scores (performance,
// accessibility, best practices, SEO) per screen and form factor, the median of LIGHTHOUSE_RUNS
// runs, and exits 1 when any median is under LIGHTHOUSE_MIN (95, issue 25).
//
//   npm run build && npm run lighthouse
//
// It seeds a temporary DATA_DIR (`labctl seed --demo --volume N`), starts `labctl serve --demo` on
// a free port of 127.0.0.1, launches the local Chromium (CHROMIUM_PATH, else CHROME_PATH, else
// /usr/bin/chromium; no browser is downloaded) through chrome-launcher, signs each demo account in
// through the API inside that browser (password, then the code `--demo` prints) and runs Lighthouse
// on the screen with the same browser, its cookie and local storage kept (disableStorageReset; the
// HTTP cache is cleared before each run). The login screen is measured before anyone signs in.
//
// Environment:
//   LIGHTHOUSE_MODULES  a folder whose node_modules holds lighthouse 12 (Node 20; 13 needs Node 22),
//                       if not this package's own (e.g. /tmp/lh after `npm install lighthouse@12`)
//   LIGHTHOUSE_RUNS     runs per screen and form factor (default 3; the median is reported)
//   LIGHTHOUSE_FORMS    desktop,mobile (default both)
//   LIGHTHOUSE_SCREENS  comma-separated names to measure (default all, see SCREENS)
//   LIGHTHOUSE_MIN      lowest passing score, 0-100 (default 95)
//   LIGHTHOUSE_VOLUME   generated requests besides the demo ones (default 2000)
//   LIGHTHOUSE_REPORTS  a folder to write each run's report into (HTML and the JSON result)
//
// Performance is measured on this machine: on a shared 2-core machine it varies from run to run,
// which is why the median of several runs is what counts.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = positiveInt('LIGHTHOUSE_RUNS', 3);
const MIN = positiveInt('LIGHTHOUSE_MIN', 95);
const VOLUME = positiveInt('LIGHTHOUSE_VOLUME', 2000, true);
const FORMS = list('LIGHTHOUSE_FORMS', ['desktop', 'mobile']);
const CHROME = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';
const REPORTS = process.env.LIGHTHOUSE_REPORTS ? path.resolve(process.env.LIGHTHOUSE_REPORTS) : null;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const DEMO_PASSWORD = 'demo-password';

/** The screens issue 25 names, in the order they are measured; `as` is the demo account signed in. */
const SCREENS = [
  { name: 'login', as: null, path: () => '/login' },
  { name: 'submit', as: 'client', path: (s) => `/submit-a-request/${s.userId}` },
  { name: 'results', as: 'client', path: (s) => `/request-results/${s.userId}/${s.releasedRequestId}` },
  { name: 'pending', as: 'staff', path: (s) => `/pending-requests/${s.userId}` },
  { name: 'for-testing', as: 'chemtester', path: (s) => `/for-testing-chem/${s.userId}` },
  { name: 'test-results', as: 'chemtester', path: (s) => `/test-results-chem/${s.userId}` },
];

function positiveInt(name, fallback, zeroOk = false) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1)) die(`${name}: expected a whole number${zeroOk ? '' : ' above 0'}, got ${raw}`);
  return value;
}

function list(name, all) {
  const raw = process.env[name];
  if (!raw) return all;
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  const unknown = values.filter((v) => !all.includes(v));
  if (unknown.length) die(`${name}: unknown ${unknown.join(', ')} (known: ${all.join(', ')})`);
  return values;
}

function die(message) {
  console.error(message);
  process.exit(2);
}

/** lighthouse, chrome-launcher and puppeteer-core, from LIGHTHOUSE_MODULES or this package. */
async function loadTools() {
  const base = process.env.LIGHTHOUSE_MODULES ? path.resolve(process.env.LIGHTHOUSE_MODULES) : root;
  const require = createRequire(path.join(base, 'package.json'));
  const load = async (specifier) => {
    let resolved;
    try {
      resolved = require.resolve(specifier);
    } catch {
      die(
        `Cannot find ${specifier} from ${base}. Install Lighthouse 12 (Node 20) as a dev dependency ` +
          '(`npm install -D lighthouse@12`), or into a scratch folder named by LIGHTHOUSE_MODULES.',
      );
    }
    return import(pathToFileURL(resolved).href);
  };
  const lighthouseDir = path.dirname(require.resolve('lighthouse/package.json'));
  // chrome-launcher and puppeteer-core are lighthouse's own dependencies: resolve them from it.
  const fromLighthouse = createRequire(path.join(lighthouseDir, 'package.json'));
  const { default: lighthouse } = await load('lighthouse');
  const { default: desktopConfig } = await load('lighthouse/core/config/desktop-config.js');
  const chromeLauncher = await import(pathToFileURL(fromLighthouse.resolve('chrome-launcher')).href);
  const puppeteer = (await import(pathToFileURL(fromLighthouse.resolve('puppeteer-core')).href)).default;
  return { lighthouse, desktopConfig, chromeLauncher, puppeteer };
}

/** `labctl seed` into a new DATA_DIR, then `labctl serve --demo --port 0` on 127.0.0.1. */
async function startLab() {
  for (const built of ['dist/labctl/bin.js', 'dist/ui/index.html']) {
    if (!existsSync(path.join(root, built))) die(`${built} is missing: run \`npm run build\` first`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lab-lighthouse-'));
  const env = { ...process.env, DATA_DIR: dataDir, NO_COLOR: '1', FORCE_COLOR: '0', LOG_LEVEL: 'warn' };
  for (const key of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL', 'LAB_NAME', 'LAB_SHORT_NAME']) delete env[key];
  const bin = path.join(root, 'bin', 'labctl');
  const seedArgs = ['seed', '--demo', ...(VOLUME > 0 ? ['--volume', String(VOLUME)] : [])];
  execFileSync(process.execPath, [bin, ...seedArgs], { env, cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

  const child = spawn(process.execPath, [bin, 'serve', '--demo', '--port', '0', '--host', '127.0.0.1'], {
    env,
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  const waiters = new Set();
  const onLine = (line) => {
    lines.push(line);
    for (const waiter of waiters) waiter(line);
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  /** Resolves with the first capture of `pattern` in a line printed from now on. */
  const waitForLine = (pattern, what, ms = 30_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`labctl serve did not print ${what} within ${ms} ms:\n${lines.slice(-20).join('\n')}`));
      }, ms);
      function check(line) {
        const match = pattern.exec(line);
        if (!match) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(match[1]);
      }
      waiters.add(check);
    });
  const listening = waitForLine(/Listening on (http:\/\/\S+)/, '"Listening on"');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const baseURL = await Promise.race([
    listening,
    exited.then((code) => {
      throw new Error(`labctl serve exited (${code}) before listening:\n${lines.join('\n')}`);
    }),
  ]);
  const origin = new URL(baseURL);
  origin.hostname = '127.0.0.1';
  return {
    baseURL: origin.origin,
    waitForLine,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs `role`@demo.lab in inside the browser (POST /login, the code `--demo` prints, POST
 * /verify-otp), sets the local storage the portal routes by, and returns what the screens need.
 */
async function signIn(browser, lab, role) {
  const email = `${role}@demo.lab`;
  const page = await browser.newPage();
  try {
    await page.goto(`${lab.baseURL}/login`, { waitUntil: 'load' });
    const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const codeLine = lab.waitForLine(new RegExp(`mail to ${escaped}:.*\\[code (\\d{6})\\]`), `a login code for ${email}`);
    const post = (url, body) =>
      page.evaluate(
        async ({ url, body }) => {
          const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
          return { status: res.status, text: await res.text() };
        },
        { url, body },
      );
    const login = await post('/login', { identifier: email, password: DEMO_PASSWORD });
    if (login.status !== 200) throw new Error(`POST /login for ${email}: ${login.status} ${login.text}`);
    const otp = await codeLine;
    const verify = await post('/verify-otp', { username: email, otp });
    if (verify.status !== 200) throw new Error(`POST /verify-otp for ${email}: ${verify.status} ${verify.text}`);
    const answer = verify.text.trim();
    const [userType, userId] = answer.split('/');
    await page.evaluate(
      ({ userId, userType, answer }) => {
        localStorage.setItem('responseData', answer);
        localStorage.setItem('userId', userId);
        localStorage.setItem('userType', userType.toLowerCase());
      },
      { userId, userType, answer },
    );
    const session = { userId };
    if (role === 'client') {
      const rows = await page.evaluate(async (url) => (await fetch(url)).json(), `/requests/queue/client/${userId}?status=RELEASED&limit=1`);
      if (!rows[0]) throw new Error(`${email} has no released request to show on the results screen`);
      session.releasedRequestId = rows[0].requestId;
    }
    return session;
  } finally {
    await page.close();
  }
}

async function clearHttpCache(browser) {
  const page = await browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await page.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The audits of a category that lost it points, worst first: "id (score)". */
function losses(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit.score !== null && audit.score < 1)
    .sort((a, b) => b.ref.weight * (1 - b.audit.score) - a.ref.weight * (1 - a.audit.score))
    .map(({ ref, audit }) => `${ref.id} ${Math.round(audit.score * 100)}`);
}

async function main() {
  const wanted = list('LIGHTHOUSE_SCREENS', SCREENS.map((s) => s.name));
  const screens = SCREENS.filter((s) => wanted.includes(s.name));
  if (!existsSync(CHROME)) die(`No Chromium at ${CHROME}: install Debian's chromium, or name one with CHROMIUM_PATH`);
  const { lighthouse, desktopConfig, chromeLauncher, puppeteer } = await loadTools();
  if (REPORTS) mkdirSync(REPORTS, { recursive: true });

  const lab = await startLab();
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const results = [];
  try {
    console.log(`Lighthouse on ${lab.baseURL}, ${RUNS} run(s) per screen and form factor, median shown; passing: ${MIN}+`);
    let signedIn = null;
    let session = {};
    for (const screen of screens) {
      // One account is signed in at a time (the browser keeps one session cookie): the screens are
      // listed grouped by account, and the login screen first, before anyone signs in.
      if (screen.as && screen.as !== signedIn) {
        session = await signIn(browser, lab, screen.as);
        signedIn = screen.as;
      }
      const url = lab.baseURL + screen.path(session);
      for (const form of FORMS) {
        const runs = [];
        for (let run = 1; run <= RUNS; run++) {
          let lhr;
          for (let attempt = 1; attempt <= 2; attempt++) {
            await clearHttpCache(browser);
            const flags = { port: chrome.port, logLevel: 'error', output: 'html', disableStorageReset: true };
            const result = await lighthouse(url, flags, form === 'desktop' ? desktopConfig : undefined);
            lhr = result.lhr;
            // A trace Chromium recorded without the page's navigation start (NO_NAVSTART) happens
            // now and then on a busy machine: such a run has no score, so it is taken again once.
            if (!lhr.runtimeError) {
              if (REPORTS) {
                const name = path.join(REPORTS, `${screen.name}-${form}-${run}`);
                writeFileSync(`${name}.html`, result.report);
                writeFileSync(`${name}.json`, JSON.stringify(lhr));
              }
              break;
            }
            console.error(`  ${screen.name} ${form} run ${run}: ${lhr.runtimeError.code}${attempt === 1 ? ', running it again' : ''}`);
          }
          runs.push(lhr);
        }
        const scores = Object.fromEntries(
          CATEGORIES.map((c) => [c, median(runs.map((lhr) => Math.round((lhr.categories[c]?.score ?? 0) * 100)))]),
        );
        const failing = CATEGORIES.filter((c) => scores[c] < MIN);
        const line = `${screen.name.padEnd(13)} ${form.padEnd(8)} ` + CATEGORIES.map((c) => `${c} ${String(scores[c]).padStart(3)}`).join('  ');
        console.log(line + (failing.length ? '  << under ' + MIN : ''));
        if (RUNS > 1) {
          console.log(`${''.padEnd(23)}performance per run: ${runs.map((lhr) => Math.round((lhr.categories.performance?.score ?? 0) * 100)).join(', ')}`);
        }
        for (const category of failing) {
          const worst = runs.find((lhr) => Math.round((lhr.categories[category]?.score ?? 0) * 100) <= scores[category]) ?? runs[0];
          console.log(`${''.padEnd(23)}${category}: ${losses(worst, category).join(', ') || worst.runtimeError?.code || 'no score'}`);
        }
        results.push({ screen: screen.name, form, scores, failing });
      }
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
    await lab.stop();
  }
  const failed = results.filter((r) => r.failing.length);
  console.log(
    failed.length
      ? `${failed.length} of ${results.length} screen/form pairs score under ${MIN} in some category.`
      : `All ${results.length} screen/form pairs score ${MIN} or more in all four categories.`,
  );
  process.exitCode = failed.length ? 1 : 0;
}

await main();
