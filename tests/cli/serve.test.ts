import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { LABCTL, dataDirsPerTest, labctl } from './labctl.js';

const newDir = dataDirsPerTest();

describe('labctl serve', () => {
  it('prints the URL and demo accounts, serves, and shuts down cleanly on Ctrl-C', async () => {
    const dataDir = newDir();
    const child = execa('node', [LABCTL, 'serve', '--port', '0', '--demo'], {
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      reject: false,
    });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const m = stdout.match(/Listening on (http:\/\/\S+)/);
        if (m) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error(`serve exited early: ${stdout}`)));
    });
    for (const role of ['client', 'staff', 'chemtester', 'microbiotester', 'molbiotester']) {
      expect(stdout).toMatch(new RegExp(`${role}\\s+${role}@demo\\.lab\\s+password: \\S+`));
    }
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
    const page = await fetch(`${url}/login`);
    expect(page.headers.get('content-type')).toMatch(/text\/html|application\/json/);

    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Stopped.');
    expect(fs.existsSync(`${dataDir}/lab.sqlite`)).toBe(true);
  });

  it('does not create demo accounts twice', async () => {
    const dataDir = newDir();
    for (let run = 0; run < 2; run += 1) {
      const child = execa('node', [LABCTL, 'serve', '--port', '0', '--demo'], { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, reject: false });
      let stdout = '';
      await new Promise<void>((resolve) => {
        child.stdout!.on('data', (c: Buffer) => {
          stdout += c.toString();
          if (stdout.includes('Listening on')) resolve();
        });
      });
      expect(stdout.includes('Demo accounts')).toBe(run === 0);
      child.kill('SIGINT');
      await child;
    }
  });

  it('lists every bad setting at once and exits 1', async () => {
    const result = await labctl(['serve'], newDir(), { env: { PORT: 'abc', SESSION_IDLE_MINUTES: '-5' } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('SESSION_IDLE_MINUTES');
  });
});

describe('labctl migrate', () => {
  it('reports status, rolls back and re-applies', async () => {
    const dataDir = newDir();
    expect((await labctl(['migrate', 'latest'], dataDir)).stderr).toContain('applied 001_initial, 002_list_indexes');
    const status = await labctl(['migrate', 'status', '--json'], dataDir);
    expect(JSON.parse(status.stdout)).toEqual({ applied: ['001_initial', '002_list_indexes'], pending: [] });
    const rollback = await labctl(['migrate', 'rollback', '--all'], dataDir);
    expect(rollback.exitCode).toBe(0);
    expect(rollback.stderr).toContain('reverted 002_list_indexes, 001_initial');
    expect(JSON.parse((await labctl(['migrate', 'status', '--json'], dataDir)).stdout).pending).toEqual(['001_initial', '002_list_indexes']);
  });
});

describe('labctl usage', () => {
  it('exits 2 on an unknown command and shows help', async () => {
    const result = await labctl(['frobnicate'], newDir());
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown command/i);
  });

  it('lists its commands in --help', async () => {
    const result = await labctl(['--help'], newDir());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('serve');
    expect(result.stdout).toContain('migrate');
  });
});
