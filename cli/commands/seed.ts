import type { Command } from 'commander';
import { insertDemoRequests } from '../../fixtures/demoRequests.js';
import { insertVolume } from '../../fixtures/volume.js';
import { refreshStatistics } from '../../server/db/statistics.js';
import { seedDemoAccounts } from '../../server/services/demo.js';
import { formatCount } from '../table.js';
import { info, out, UsageError, withRuntime } from '../runtime.js';
import { startProgress } from '../terminal.js';

interface SeedOptions {
  demo?: boolean;
  volume?: string;
  seed?: string;
  json?: boolean;
}

const wholeNumber = (flag: string, text: string, min: number) => {
  if (!/^[0-9]+$/.test(text) || Number(text) < min) throw new UsageError(`${flag} must be a whole number from ${min} (got "${text}").`);
  return Number(text);
};

export function registerSeed(command: Command): void {
  command
    .option('--demo', 'one demo account per role and demo requests in every status (the default; only into an empty database)')
    .option('--volume <n>', 'add n generated requests spread over this year and last, with samples and results (about 5% positive)')
    .option('--seed <n>', 'random seed of --volume: the same seed gives the same data', '1')
    .option('--json', 'print what was added as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ labctl seed                       # same as --demo\n  $ labctl seed --demo --volume 20000\n  $ DATABASE_URL=postgres://lab@db/lab labctl seed --volume 100000 --seed 7',
    )
    .action((opts: SeedOptions) =>
      withRuntime(async (rt) => {
        const volume = opts.volume === undefined ? 0 : wholeNumber('--volume', opts.volume, 1);
        const seed = wholeNumber('--seed', opts.seed ?? '1', 0);
        const demo = opts.demo || volume === 0;
        const report: Record<string, unknown> = {};

        if (demo) {
          const accounts = await seedDemoAccounts(rt.db, rt.clock);
          if (accounts.length === 0) {
            report.demo = { accounts: [], requests: 0 };
            info('Demo data skipped: the database already has accounts (demo data goes into an empty database only).');
          } else {
            const requests = await insertDemoRequests(rt.db, rt.clock.now());
            report.demo = { accounts, requests: requests.length };
            if (!opts.json) {
              out(`Demo accounts (password for all: ${accounts[0].password}):`);
              for (const a of accounts) out(`  ${a.role.padEnd(15)} ${a.email}`);
              out(`Demo requests: ${requests.length}, one or more in every status.`);
            }
          }
        }

        if (volume > 0) {
          const progress = await startProgress('Generating requests', volume, 'requests', { json: opts.json, plainLines: true });
          const started = Date.now();
          const outcome = await insertVolume(rt.db, { requests: volume, clock: rt.clock, seed, onProgress: (done) => progress.update(done) });
          await progress.finish();
          const seconds = (Date.now() - started) / 1000;
          report.volume = { ...outcome, seconds };
          if (!opts.json) {
            out(`Generated ${formatCount(outcome.requests)} requests, ${formatCount(outcome.samples)} samples and ${formatCount(outcome.analyses)} analyses in ${seconds.toFixed(1)} s.`);
            out(`  ${Object.entries(outcome.byStatus).map(([status, n]) => `${status} ${formatCount(n)}`).join(', ')}`);
          }
        }
        // The planner needs statistics of what was just loaded (PostgreSQL gathers none by itself in time).
        await refreshStatistics(rt.db);
        if (opts.json) out(JSON.stringify(report));
      }, { createDatabase: true }),
    );
}
