// Logs go to stderr in one format: JSON lines by default for `labctl serve` whose stderr is not a
// terminal (journald, Docker), or `LEVEL time msg key=value` lines with LOG_FORMAT=pretty (the
// default on a terminal). stdout carries only what the command prints as its result.
import { describe, expect, it } from 'vitest';
import { dataDirsPerTest, startServe } from './labctl.js';

const newDir = dataDirsPerTest();

/** Serves, makes one call, stops with Ctrl-C; resolves with what the process wrote. */
async function serveOneCall(env: Record<string, string>) {
  const { child, url } = await startServe(['--port', '0', '--host', '127.0.0.1'], { DATA_DIR: newDir(), LOG_LEVEL: 'info', ...env });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  child.kill('SIGINT');
  const result = await child;
  return { stdout: String(result.stdout), stderrLines: String(result.stderr).trim().split('\n') };
}

describe('labctl serve logs', () => {
  it('writes JSON lines on a stderr that is not a terminal, and nothing but its messages on stdout', async () => {
    const { stdout, stderrLines } = await serveOneCall({});
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/^Listening on http:/)]);
    const request = stderrLines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((e) => e.url === '/healthz');
    expect(request).toMatchObject({ level: 30, msg: 'request', method: 'GET', status: 200 });
  });

  it('writes a call\'s line while it runs, within a second, and every line of a burst by the time it stops', async () => {
    const { child, url } = await startServe(['--port', '0', '--host', '127.0.0.1'], { DATA_DIR: newDir(), LOG_LEVEL: 'info' });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      // Far less than the 4 KB a batch waits for: only the timer writes it.
      expect((await fetch(`${url}/healthz?probe=one`)).status).toBe(200);
      const asked = performance.now();
      await expect.poll(() => stderr.includes('/healthz?probe=one'), { timeout: 1000, interval: 20 }).toBe(true);
      expect(performance.now() - asked).toBeLessThan(1000);
      // More than a batch, the last of them logged just before Ctrl-C.
      for (let i = 0; i < 100; i += 1) expect((await fetch(`${url}/healthz?burst=${i}`)).status).toBe(200);
    } finally {
      child.kill('SIGINT');
      await child;
    }
    const burst = stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((e) => String(e.url).startsWith('/healthz?burst='));
    expect(burst.map((e) => e.url)).toEqual(Array.from({ length: 100 }, (_, i) => `/healthz?burst=${i}`));
  });

  it('writes short readable lines with LOG_FORMAT=pretty', async () => {
    const { stderrLines } = await serveOneCall({ LOG_FORMAT: 'pretty' });
    expect(stderrLines.some((l) => l.startsWith('{'))).toBe(false);
    expect(stderrLines).toContainEqual(expect.stringMatching(/^INFO \d\d:\d\d:\d\d request method=GET url=\/healthz status=200 ms=\d+$/));
  });
});
