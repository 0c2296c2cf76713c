// The built `labctl serve` as a child process (needs `npm run build` first), for tests about what
// runs between processes: several instances on one database, what a server records at start.
import path from 'node:path';
import { execa, type Options, type ResultPromise } from 'execa';
import type { TestDatabase } from './testDatabase.js';

export const LABCTL = path.resolve('bin/labctl');

/** DATABASE_URL naming the test's SQLite file or PostgreSQL schema. */
export function databaseUrl({ settings: s }: Pick<TestDatabase, 'settings'>): string {
  if (s.client === 'sqlite3') return `sqlite://${s.filename}`;
  return `${s.connectionString}${s.connectionString.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${s.searchPath}`)}`;
}

export interface ServeProcess {
  child: ResultPromise;
  /** http://127.0.0.1:<port> */
  url: string;
}

/** Starts `labctl serve --port 0 --host 127.0.0.1` and resolves once it listens. */
export function startServe(options: Options): Promise<ServeProcess> {
  const child = execa('node', [LABCTL, 'serve', '--port', '0', '--host', '127.0.0.1'], { reject: false, ...options });
  return new Promise<ServeProcess>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const m = /Listening on http:\/\/localhost:(\d+)/.exec(stdout);
      if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}` });
    });
    void child.then((r) => reject(new Error(`serve exited: ${String(r.stderr)}`)));
  });
}

/** Stops the servers with SIGTERM, as systemd does, and answers their exit codes (0: a clean stop). */
export async function stopServes(children: ResultPromise[]): Promise<(number | undefined)[]> {
  for (const child of children) child.kill('SIGTERM');
  return (await Promise.all(children)).map((r) => r.exitCode);
}
