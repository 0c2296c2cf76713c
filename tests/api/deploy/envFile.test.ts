// docs/deploy.md followed literally: the env file it shows is deploy/lab.env byte for byte, systemd's
// EnvironmentFile= rules and a shell that sources it read the same values, and the systemd unit reads
// it from where the document installs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { parseSystemdEnv } from '../../helpers/systemdEnv.js';

const ENV_FILE = 'deploy/lab.env';
const INSTALLED = '/etc/lab/lab.env';
const doc = fs.readFileSync('docs/deploy.md', 'utf8');

/** The fenced blocks of the document with this info string. */
function fencedBlocks(lang: string): string[] {
  return [...doc.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang).map((m) => m[2]);
}

/** The unit's [Section] Key=Value lines (enough of systemd.unit(5) for this check). */
function unitSettings(unit: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let section = '';
  for (const raw of unit.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) section = header[1];
    else {
      const eq = line.indexOf('=');
      const key = line.slice(0, eq).trim();
      ((sections[section] ??= {})[key] ??= []).push(line.slice(eq + 1).trim());
    }
  }
  return sections;
}

/** The variables `shell` sets when it sources the file with `set -a`, from an empty environment. */
async function sourcedBy(shell: 'bash' | 'sh', file: string): Promise<Record<string, string>> {
  const dump = 'node -e "process.stdout.write(JSON.stringify(process.env))"';
  const run = async (script: string) =>
    JSON.parse((await execa(shell, ['-c', script], { env: { PATH: process.env.PATH! }, extendEnv: false })).stdout) as Record<string, string>;
  const before = await run(dump);
  const after = await run(`set -a; . "${file}"; set +a; ${dump}`);
  return Object.fromEntries(Object.entries(after).filter(([k, v]) => before[k] !== v));
}

describe('the env file of docs/deploy.md', () => {
  const file = fs.readFileSync(ENV_FILE, 'utf8');

  it('is shown in docs/deploy.md exactly as deploy/lab.env holds it', () => {
    expect(fencedBlocks('dotenv')).toEqual([file]);
  });

  it.each(['bash', 'sh'] as const)('means to %s (set -a; . file; set +a) what it means to systemd', async (shell) => {
    const systemd = parseSystemdEnv(file);
    expect(Object.keys(systemd)).toEqual(['DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'MAIL_FROM', 'PUBLIC_URL', 'TRUST_PROXY', 'LAB_NAME', 'LOG_LEVEL']);
    expect(systemd.MAIL_FROM).toBe('Laboratory <portal@lab.example.org>');
    expect(systemd.DATABASE_URL).toBe('postgres://lab_app:secret@db.internal:5432/lab');
    expect(await sourcedBy(shell, ENV_FILE)).toEqual(systemd);
  });

  it.each(['bash', 'sh'] as const)('still means the same to %s and systemd once edited as its comments say: single quotes around $ ` \\ " #', async (shell) => {
    const password = 'pa$s`w\\o"r#d $HOME';
    const edited = file.replace(/^DATABASE_URL=.*$/m, `DATABASE_URL='postgres://lab_app:${password}@db.internal:5432/lab'`).replace(/^LAB_NAME=.*$/m, 'LAB_NAME="Meat  Inspection # Laboratory"');
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lab-env-')), 'lab.env');
    fs.writeFileSync(copy, edited);
    try {
      const systemd = parseSystemdEnv(edited);
      expect(systemd).toMatchObject({ DATABASE_URL: `postgres://lab_app:${password}@db.internal:5432/lab`, LAB_NAME: 'Meat  Inspection # Laboratory' });
      expect(await sourcedBy(shell, copy)).toEqual(systemd);
    } finally {
      fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  });

  it('holds settings the server accepts, and no SECRET_KEY', () => {
    const config = loadConfig(parseSystemdEnv(file));
    expect(config).toMatchObject({ trustProxy: true, publicUrl: 'https://lab.example.org', mailFrom: 'Laboratory <portal@lab.example.org>', dataDir: '/srv/lab/data' });
    expect(config.secretKey).toBeUndefined();
  });

  it('is installed where the systemd unit and the shell commands of the document read it', () => {
    const [unit] = fencedBlocks('ini');
    const service = unitSettings(unit).Service;
    expect(service.EnvironmentFile).toEqual([INSTALLED]);
    expect(service.ExecStart[0]).toMatch(/ bin\/labctl serve --port %i --host 127\.0\.0\.1$/);
    const shellLines = fencedBlocks('sh').join('\n');
    expect(shellLines).toContain(`${ENV_FILE} ${INSTALLED}`);
    expect(shellLines).toContain(`set -a; . ${INSTALLED}; set +a`);
  });
});
