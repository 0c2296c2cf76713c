// `npm test`: every suite, stopping at the first failure. After the build, three lanes run at once:
// the API suite on SQLite then the unit tests; the API suite on PostgreSQL (TEST_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/test); and the browser tests then the CLI suite. They
// share nothing (own files, own schema, own servers), and none of them keeps a core busy on its own
// (the PostgreSQL run mostly waits on its database, the browser tests on their pages), so on two
// cores together they take little more than the longest. That is the PostgreSQL run (its files took
// 1.7 times as long as on SQLite, each suite run alone on the same loaded machine), so it has a lane
// of its own and the unit tests follow the SQLite run. Each runner also writes a JSON report, so the
// last line can total the tests of every suite. Last, the run fails if a process it started is still
// alive (a test must stop what it starts, even when it fails): every child inherits the run's marker,
// which shows who is left.
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
      ['unit tests', ...vitest('unit', 'unit')],
    ],
    [['API tests on PostgreSQL', 'node', ['scripts/with-postgres.mjs', ...vitest('api', 'api-postgres').flat()]]],
    [
      ['browser tests', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts', '--reporter=list,json']],
      ['CLI tests', ...vitest('cli', 'cli')],
    ],
  ],
];

await runTestSteps(steps);
