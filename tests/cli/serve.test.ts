import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { LABCTL, dataDirsPerTest, labctl, labctlProcess, startServe } from './labctl.js';

const newDir = dataDirsPerTest();

describe('labctl serve', () => {
  it('prints the URL and demo accounts, serves, and shuts down cleanly on Ctrl-C', async () => {
    const dataDir = newDir();
    const { child, url, stdout } = await startServe(['--port', '0', '--demo'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    for (const role of ['client', 'staff', 'chemtester', 'microbiotester', 'molbiotester']) {
      expect(stdout).toMatch(new RegExp(`${role}\\s+${role}@demo\\.lab\\s+password: \\S+`));
    }
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
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
    expect((await labctl(['migrate', 'latest'], dataDir)).stderr).toContain('applied 001_initial, 002_list_indexes, 004_certificates, 005_reception, 006_mail_outbox, 007_report_counts, 008_list_search_indexes, 009_client_address_withdrawals, 010_perf_indexes, 011_audit_truncate, 012_settings, 013_request_progress, 014_change_versions, 015_turnaround_paging, 016_audit_trail, 017_request_search, 018_version_triggers, 019_specifications, 020_turnaround_weeks, 021_earlier_versions, 022_progress_conformity, 023_sample_species, 024_progress_counts, 025_analyses_write_indexes, 026_version_marks_per_request, 027_wider_windows');
    const status = await labctl(['migrate', 'status', '--json'], dataDir);
    expect(JSON.parse(status.stdout)).toEqual({ applied: ['001_initial', '002_list_indexes', '004_certificates', '005_reception', '006_mail_outbox', '007_report_counts', '008_list_search_indexes', '009_client_address_withdrawals', '010_perf_indexes', '011_audit_truncate', '012_settings', '013_request_progress', '014_change_versions', '015_turnaround_paging', '016_audit_trail', '017_request_search', '018_version_triggers', '019_specifications', '020_turnaround_weeks', '021_earlier_versions', '022_progress_conformity', '023_sample_species', '024_progress_counts', '025_analyses_write_indexes', '026_version_marks_per_request', '027_wider_windows'], pending: [] });
    const rollback = await labctl(['migrate', 'rollback', '--all', '--yes'], dataDir);
    expect(rollback.exitCode).toBe(0);
    expect(rollback.stderr).toContain('reverted 027_wider_windows, 026_version_marks_per_request, 025_analyses_write_indexes, 024_progress_counts, 023_sample_species, 022_progress_conformity, 021_earlier_versions, 020_turnaround_weeks, 019_specifications, 018_version_triggers, 017_request_search, 016_audit_trail, 015_turnaround_paging, 014_change_versions, 013_request_progress, 012_settings, 011_audit_truncate, 010_perf_indexes, 009_client_address_withdrawals, 008_list_search_indexes, 007_report_counts, 006_mail_outbox, 005_reception, 004_certificates, 002_list_indexes, 001_initial');
    expect(JSON.parse((await labctl(['migrate', 'status', '--json'], dataDir)).stdout).pending).toEqual(['001_initial', '002_list_indexes', '004_certificates', '005_reception', '006_mail_outbox', '007_report_counts', '008_list_search_indexes', '009_client_address_withdrawals', '010_perf_indexes', '011_audit_truncate', '012_settings', '013_request_progress', '014_change_versions', '015_turnaround_paging', '016_audit_trail', '017_request_search', '018_version_triggers', '019_specifications', '020_turnaround_weeks', '021_earlier_versions', '022_progress_conformity', '023_sample_species', '024_progress_counts', '025_analyses_write_indexes', '026_version_marks_per_request', '027_wider_windows']);
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

// What only a real process shows: its exit code, its streams, and a pipe closed early.
describe('labctl as a process', () => {
  it('prints its version', async () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(await labctlProcess(['--version'], newDir())).toEqual({ exitCode: 0, stdout: pkg.version, stderr: '' });
  });

  it('exits 2 on a usage error', async () => {
    const res = await labctlProcess(['requests', 'list', '--limit', 'x'], newDir());
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/^Error: --limit must be a number/);
  });

  it('stops quietly when the reader of its output goes away (| head -1, output beyond the 64 KB pipe buffer)', async () => {
    const dataDir = newDir();
    await labctl(['seed', '--demo', '--volume', '1000'], dataDir);
    const res = await execa('sh', ['-c', `node "${LABCTL}" requests list | head -1`], { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, reject: false });
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toMatch(/^\s*ID\s+Control Number/);
    expect(res.stderr).toBe('');
  });

  it('writes no colour codes on a terminal when NO_COLOR is set', async () => {
    const dataDir = newDir();
    await labctl(['seed', '--demo'], dataDir);
    // script(1) runs labctl on a pseudo-terminal, where Ink draws the table, in colour by default.
    const onTerminal = (env: Record<string, string>) =>
      execa('script', ['-qec', `stty rows 60 cols 200; node "${LABCTL}" requests list`, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
        extendEnv: false,
        reject: false,
      });
    // A colour or style is ESC [ <numbers> m.
    const coloured = (text: string) => text.split('\u001b[').slice(1).some((rest) => /^[0-9;]*m/.test(rest));
    expect(coloured((await onTerminal({})).stdout)).toBe(true);
    const plain = await onTerminal({ NO_COLOR: '1' });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toContain('RELEASED');
    expect(coloured(plain.stdout)).toBe(false);
  });
});
