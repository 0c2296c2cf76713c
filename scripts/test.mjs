// `npm test`: every suite, stopping at the first failure. The API suite runs twice, on SQLite and on
// PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), both at once:
// they share nothing (own files, own schema) and the PostgreSQL run mostly waits on its database, so
// together they take little more than the longer one; the CLI suite follows the SQLite run in its
// lane, and the unit tests precede the PostgreSQL run in the other. Each runner also writes a JSON report, so the last line can total the tests of
// every suite. Last, the run fails if a process it started is still alive (a test must stop what it
// starts, even when it fails): every child inherits the run's marker, which shows who is left.
import path from 'node:path';
import { reports, runTestSteps } from './test-run.mjs';

const vitest = (project, name) => ['npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, `${name}.vitest.json`)}`]];

// Each step is one lane of commands run one after the other, or several lanes run at the same time
// (a command's output is printed when it ends).
const steps = [
  [[['build', 'node', ['scripts/ensure-build.mjs']]]],
  [
    [
      ['API tests on SQLite', ...vitest('api', 'api-sqlite')],
      ['CLI tests', ...vitest('cli', 'cli')],
    ],
    [
      ['unit tests', ...vitest('unit', 'unit')],
      ['API tests on PostgreSQL', 'node', ['scripts/with-postgres.mjs', ...vitest('api', 'api-postgres').flat()]],
    ],
  ],
  [[['browser tests', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts', '--reporter=list,json']]]],
];

await runTestSteps(steps);
