// Runs a command with TEST_DATABASE_URL pointing at PostgreSQL (default: the local server's `test`
// database), so the API suite runs against it.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' };
const [command, ...args] = process.argv.slice(2);
const result = spawnSync(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
