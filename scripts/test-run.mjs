// Runs the steps of `npm test` (scripts/test.mjs) and ends the process: stops at the first step that
// fails, prints the totals of every runner's JSON report as the last line, and fails the run when a
// process it started is still alive at its end (a test must stop what it starts, even when it fails):
// every child inherits the run's marker, which shows who is left.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canSearch, lingeringProcesses, MARKER, newRunId } from './leftover-processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the runners write their JSON reports (read by the totals line, removed at the end). */
export const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-test-reports-'));

/**
 * Runs `steps` (each a list of lanes run side by side, each lane a list of [name, command, args] run
 * one after the other) and exits: 0 when every command passed and no process of the run is left.
 */
export async function runTestSteps(steps) {
  const runId = newRunId();
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'e2e.playwright.json'), [MARKER]: runId };
  delete env.TEST_DATABASE_URL; // only the PostgreSQL step sets it

  function totals() {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const file of fs.readdirSync(reports)) {
      const report = JSON.parse(fs.readFileSync(path.join(reports, file), 'utf8'));
      if (file.endsWith('.vitest.json')) {
        passed += report.numPassedTests;
        failed += report.numFailedTests;
        skipped += report.numPendingTests + report.numTodoTests;
      } else {
        passed += report.stats.expected + report.stats.flaky;
        failed += report.stats.unexpected;
        skipped += report.stats.skipped;
      }
    }
    return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
  }

  /** Runs one command; alone it prints as it goes, beside others its output comes in one piece at its end. */
  function run([name, command, args], alone) {
    if (alone) console.log(`\n=== ${name}`);
    return new Promise((resolve) => {
      const child = spawn(command, args, { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], env });
      const output = [];
      child.stdout?.on('data', (chunk) => output.push(chunk));
      child.stderr?.on('data', (chunk) => output.push(chunk));
      child.on('close', (status) => {
        if (!alone) process.stdout.write(`\n=== ${name}\n${Buffer.concat(output).toString()}`);
        resolve({ name, status });
      });
    });
  }

  /** Runs a lane's commands in order, up to the first that fails. */
  async function runLane(lane, alone) {
    for (const command of lane) {
      const outcome = await run(command, alone);
      if (outcome.status !== 0) return outcome;
    }
    return { status: 0 };
  }

  /** Says which processes of this run outlived it; true when there are none. */
  async function noLeftovers() {
    if (!canSearch()) {
      console.log('\n(No /proc here: processes left running were not looked for.)');
      return true;
    }
    const left = await lingeringProcesses(runId, root);
    if (left.length) {
      console.error(`\n${left.length} process(es) started by this run are still running (a test did not stop them):`);
      for (const { pid, command } of left) console.error(`  pid ${pid}: ${command}`);
    }
    return left.length === 0;
  }

  /** Prints the totals as the last line, removes the reports and exits with `status`. */
  function finish(status) {
    console.log(`Total: ${totals()}`);
    fs.rmSync(reports, { recursive: true, force: true });
    process.exit(status);
  }

  for (const step of steps) {
    const outcomes = await Promise.all(step.map((lane) => runLane(lane, step.length === 1)));
    const failed = outcomes.find((o) => o.status !== 0);
    if (failed) {
      console.error(`\n${failed.name} failed.`);
      await noLeftovers();
      finish(failed.status ?? 1);
    }
  }
  if (await noLeftovers()) {
    console.log('\nAll test suites passed.');
    finish(0);
  }
  console.error('\nEvery suite passed, but processes were left running.');
  finish(1);
}
