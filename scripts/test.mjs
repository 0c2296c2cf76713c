// `npm test`: every suite, stopping at the first failure. The API suite runs twice: on SQLite and on
// PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
import { spawnSync } from 'node:child_process';

const steps = [
  ['build', 'node', ['scripts/ensure-build.mjs']],
  ['unit tests', 'npx', ['vitest', 'run', '--project', 'unit']],
  ['API tests on SQLite', 'npx', ['vitest', 'run', '--project', 'api']],
  ['API tests on PostgreSQL', 'node', ['scripts/with-postgres.mjs', 'npx', 'vitest', 'run', '--project', 'api']],
  ['CLI tests', 'npx', ['vitest', 'run', '--project', 'cli']],
  ['browser tests', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts']],
];

const env = { ...process.env };
delete env.TEST_DATABASE_URL; // only the PostgreSQL step sets it

for (const [name, command, args] of steps) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\n${name} failed.`);
    process.exit(result.status ?? 1);
  }
}
console.log('\nAll test suites passed.');
