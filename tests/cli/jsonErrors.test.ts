// Every command that takes --json keeps stdout for its result: with the database down (PostgreSQL
// at a closed port) stdout is empty or JSON, stderr is one JSON error document and nothing else
// (no knex log, no stack), and the exit code is non-zero; without --json stderr has "Error: " lines
// and no JSON log line or stack. The commands are read from the commander program itself, so a new
// command with --json is covered without editing this list.
import { once } from 'node:events';
import net from 'node:net';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { dataDirsPerTest, labctlProcess, type LabctlResult } from './labctl.js';

const newDir = dataDirsPerTest();
/** Commands run at once. */
const PARALLEL = 4;

// Values that get each command past its own checks of its arguments, so that what fails is the
// database. A new required option needs a value here (the test says which).
const ARGUMENT_VALUES: Record<string, string> = { report: '2026-0012-R1', 'file.csv': 'fixtures/results-example.csv' };
const OPTION_VALUES: Record<string, string[]> = {
  '--as': ['staff@demo.lab'],
  '--role': ['staff'],
  '--email': ['new.staff@lab.example.org'],
  '--containers': ['1'],
  '--condition': ['acceptable'],
  '--reason': ['Checked by the test'],
  '--discipline': ['chem'],
};
// Options a command needs to reach the database that commander cannot mark required.
// The desk's verbs take one or more requests (arguments or --from-file), so none is required.
const EXTRA: Record<string, string[]> = {
  'user add': ['--password', 'a long passphrase'],
  'requests approve': ['1'],
  'requests reject': ['1'],
  'requests release': ['1', '--password-stdin'],
};
// These refuse PostgreSQL before connecting (pg_dump and pg_restore do their work); doctor reports the
// database in its checks on stdout.
const REFUSE_POSTGRES = new Set(['backup', 'restore']);

/** The words that run `command` with every required argument and option given a value. */
function invocation(command: Command): string[] {
  const names = fullName(command).split(' ');
  const args = command.registeredArguments.filter((a) => a.required).map((a) => ARGUMENT_VALUES[a.name()] ?? '1');
  const options = command.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, ...(OPTION_VALUES[o.long!] ?? [`(no value for ${o.long} in OPTION_VALUES)`])]);
  return [...names, ...args, ...options, ...(EXTRA[names.join(' ')] ?? []), '--json'];
}

function withJson(command: Command): Command[] {
  const own = command.options.some((o) => o.long === '--json') ? [command] : [];
  return [...own, ...command.commands.flatMap(withJson)];
}

/** The commands that do something: those without subcommands, and those with an action of their own (certificate). */
function runnable(command: Command): Command[] {
  const own = command.parent && (command.commands.length === 0 || (command as unknown as { _actionHandler: unknown })._actionHandler) ? [command] : [];
  return [...own, ...command.commands.flatMap(runnable)];
}

const fullName = (command: Command) => {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
};

describe('--json everywhere', () => {
  it('is offered by every command that prints data (serve prints only its address and runs until stopped)', async () => {
    const program = await buildProgram(['node', 'labctl'], true);
    const all = runnable(program).map(fullName);
    expect(all).toEqual(expect.arrayContaining(['report monthly', 'labels', 'certificate', 'certificate withdraw', 'migrate latest', 'requests approve']));
    const without = runnable(program).filter((c) => !c.options.some((o) => o.long === '--json')).map(fullName);
    expect(without).toEqual(['serve']);
  });
});

describe('commands that take --json, with the database down', () => {
  let url: string;
  let where: string;
  let commands: string[][];
  /**
   * Runs each command as its own process against the closed port, PARALLEL at a time (one after the
   * other, about forty Node starts kept one core busy for 17 s), and answers them in order.
   * LOG_LEVEL is at the commands' default: a library's log line would show up on stderr.
   */
  async function runEach(list: string[][]): Promise<Array<[string[], LabctlResult]>> {
    const results: LabctlResult[] = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < list.length; i = next++) results[i] = await labctlProcess(list[i], newDir(), { timeout: 30_000, env: { DATABASE_URL: url, LOG_LEVEL: '' } });
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    return list.map((args, i) => [args, results[i]]);
  }

  beforeAll(async () => {
    const closed = net.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    where = `127.0.0.1:${port}`;
    url = `postgres://postgres@${where}/test`;
    commands = withJson(await buildProgram(['node', 'labctl'], true)).map(invocation);
    // `report --format json` is the older spelling of --json: it fails the same way.
    commands.push(['report', 'monthly', '--format', 'json']);
  });

  it('finds the commands that take --json', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(commands).toContainEqual(['requests', 'list', '--json']);
    expect(commands).toContainEqual(['doctor', '--json']);
  });

  it('prints at most JSON on stdout, one JSON error on stderr, and exits non-zero, for each, because the database is down', async () => {
    const failures: string[] = [];
    for (const [args, res] of await runEach(commands)) {
      const label = `labctl ${args.join(' ')}`;
      if (res.exitCode === 0) failures.push(`${label}: exit 0`);
      if (res.stdout !== '') {
        try {
          JSON.parse(res.stdout);
        } catch {
          failures.push(`${label}: stdout is not JSON: ${res.stdout.slice(0, 200)}`);
        }
      }
      let error: { error?: { message?: unknown; code?: unknown } } = {};
      try {
        error = JSON.parse(res.stderr);
      } catch {
        failures.push(`${label}: stderr is not one JSON document: ${res.stderr.slice(0, 300)}`);
        continue;
      }
      if (typeof error.error?.message !== 'string' || typeof error.error?.code !== 'string') failures.push(`${label}: stderr lacks {error: {message, code}}: ${res.stderr}`);
      // What failed is the database, not the invocation.
      const refused = `PostgreSQL at ${where} refused the connection`;
      if (args[0] === 'doctor') {
        const database = (JSON.parse(res.stdout) as { checks: { name: string; detail: string }[] }).checks.find((c) => c.name === 'database');
        if (!database?.detail.startsWith(refused)) failures.push(`${label}: the database check says ${database?.detail}`);
      } else if (REFUSE_POSTGRES.has(args[0])) {
        if (!String(error.error?.message).includes(`PostgreSQL ${where}`)) failures.push(`${label}: did not refuse PostgreSQL: ${res.stderr}`);
      } else if (error.error?.code !== 'unavailable' || !String(error.error?.message).startsWith(refused)) {
        failures.push(`${label}: failed for another reason than the database: ${res.stderr}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('without --json: says so in "Error: " lines on stderr, with no JSON log line and no stack, and stdout empty', async () => {
    const failures: string[] = [];
    // Each command as a person types it: without --json (nor `report --format json`, its alias).
    for (const [args, res] of await runEach(commands.filter((words) => words.includes('--json')).map((words) => words.filter((w) => w !== '--json')))) {
      const label = `labctl ${args.join(' ')}`;
      if (res.exitCode === 0) failures.push(`${label}: exit 0`);
      // doctor's report is its result; every other command prints nothing on stdout when it fails.
      if (args[0] !== 'doctor' && res.stdout !== '') failures.push(`${label}: stdout: ${res.stdout.slice(0, 200)}`);
      if (!res.stderr.startsWith('Error: ') || /^\s*[{[]/m.test(res.stderr) || /^\s+at /m.test(res.stderr)) failures.push(`${label}: stderr: ${res.stderr.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
