// Every command that takes --json keeps stdout for its result: with the database down (PostgreSQL
// at a closed port) stdout is empty or JSON, stderr is one JSON error document and nothing else
// (no knex log, no stack), and the exit code is non-zero. The commands are read from the commander
// program itself, so a new command with --json is covered without editing this list.
import { once } from 'node:events';
import net from 'node:net';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { dataDirsPerTest, labctlProcess } from './labctl.js';

const newDir = dataDirsPerTest();

/** The words that run `command` with every required argument and option given a placeholder value. */
function invocation(command: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  const args = command.registeredArguments.filter((a) => a.required).map(() => '1');
  const options = command.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, 'staff@demo.lab']);
  return [...names, ...args, ...options, '--json'];
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

describe('--json with the database down', () => {
  let url: string;
  let commands: string[][];
  beforeAll(async () => {
    const closed = net.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    url = `postgres://postgres@127.0.0.1:${port}/test`;
    commands = withJson(await buildProgram(['node', 'labctl'], true)).map(invocation);
    // `report --format json` is the older spelling of --json: it fails the same way.
    commands.push(['report', 'monthly', '--format', 'json']);
  });

  it('finds the commands that take --json', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(commands).toContainEqual(['requests', 'list', '--json']);
    expect(commands).toContainEqual(['doctor', '--json']);
  });

  it('prints at most JSON on stdout, one JSON error on stderr, and exits non-zero, for each', async () => {
    const failures: string[] = [];
    for (const args of commands) {
      // LOG_LEVEL at the commands' default: a library's log line would show up on stderr.
      const res = await labctlProcess(args, newDir(), { timeout: 30_000, env: { DATABASE_URL: url, LOG_LEVEL: '' } });
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
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
