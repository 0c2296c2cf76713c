// The end check of `npm test` (scripts/test-run.mjs, scripts/leftover-processes.mjs): a process the
// run started that is still alive at its end is found, named, and fails the run. Linux: it reads /proc.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leftoverProcesses, MARKER, newRunId } from '../../scripts/leftover-processes.mjs';

const root = path.resolve('.');
const SLEEPER = 'setTimeout(() => {}, 120000)';

describe('processes left by a test run', () => {
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
  });
  const start = (args: string[], env: NodeJS.ProcessEnv) => {
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    started.push(child);
    return child;
  };

  it("finds a process carrying the run's marker, and one started since that runs this checkout's labctl unmarked; not another run's", async () => {
    const runId = newRunId();
    const marked = start(['-e', SLEEPER], { ...process.env, [MARKER]: runId });
    const labctl = start(['-e', SLEEPER, path.join(root, 'bin', 'labctl')], { PATH: process.env.PATH });
    const other = start(['-e', SLEEPER], { ...process.env, [MARKER]: newRunId() });
    // As the browser tests' servers of an outer `npm test` while this suite runs a run of its own.
    const otherLabctl = start(['-e', SLEEPER, path.join(root, 'bin', 'labctl')], { PATH: process.env.PATH, [MARKER]: newRunId() });
    await Promise.all([marked, labctl, other, otherLabctl].map((child) => once(child, 'spawn')));

    const found = leftoverProcesses(runId, root).map((p) => p.pid);
    expect(found).toContain(marked.pid);
    expect(found).toContain(labctl.pid);
    expect(found).not.toContain(other.pid);
    expect(found).not.toContain(otherLabctl.pid);

    marked.kill('SIGKILL');
    labctl.kill('SIGKILL');
    await Promise.all([once(marked, 'exit'), once(labctl, 'exit')]);
    // Only ours: npm test's other lanes start this checkout's labctl at the same time.
    const left = leftoverProcesses(runId, root).map((p) => p.pid);
    expect(left).not.toContain(marked.pid);
    expect(left).not.toContain(labctl.pid);
  });

  /** Runs scripts/test-run.mjs with one step, as `npm test` runs its suites. */
  const runSteps = (step: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const script = `import { runTestSteps } from ${JSON.stringify(path.join(root, 'scripts', 'test-run.mjs'))}; await runTestSteps([[[['a suite', process.execPath, ['-e', ${JSON.stringify(step)}]]]]]);`;
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: root }, (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }));
    });

  it('fails a run whose suites passed when a process it started is still running, naming it', async () => {
    // The suite starts a server-like process on its own and does not stop it.
    const leaves = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(SLEEPER)}], { detached: true, stdio: 'ignore' }).unref();`;
    const run = await runSteps(leaves);
    // Named by its command line.
    const pid = Number(/pid (\d+): \S+ -e setTimeout/.exec(run.stderr)?.[1]);
    try {
      expect(run.code).toBe(1);
      expect(pid).toBeGreaterThan(0);
      expect(run.stderr).toMatch(/\d+ process\(es\) started by this run are still running/);
      expect(run.stderr).toContain('Every suite passed, but processes were left running.');
    } finally {
      if (pid) process.kill(pid, 'SIGKILL');
    }
  }, 30_000);

  it('passes a run that stops what it started', async () => {
    const run = await runSteps(`const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(SLEEPER)}]); c.on('spawn', () => c.kill());`);
    expect(run.stdout).toContain('All test suites passed.');
    expect(run.code).toBe(0);
  }, 30_000);
});
