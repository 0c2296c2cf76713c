import { afterAll, describe, expect, it } from 'vitest';
import { labctl, removeDir, tempDataDir } from './labctl.js';

const dataDir = tempDataDir();
afterAll(() => removeDir(dataDir));

const COMMANDS: Array<{ path: string[]; options: string[] }> = [
  { path: ['seed'], options: ['--demo', '--volume <n>', '--seed <n>', '--json'] },
  { path: ['requests', 'list'], options: ['--status <status>', '--json'] },
  { path: ['requests', 'show'], options: ['--json'] },
  { path: ['requests', 'approve'], options: ['--as <email>', '--json'] },
  { path: ['requests', 'reject'], options: ['--as <email>', '--yes', '--json'] },
  { path: ['requests', 'release'], options: ['--as <email>', '--password-stdin', '--json'] },
  { path: ['certificate'], options: ['--out <file>', '--version <n>', '--json'] },
  { path: ['results', 'import'], options: ['--as <email>', '--dry-run', '--json'] },
  { path: ['report', 'monthly'], options: ['--year <year>', '--discipline <discipline>', '--format <format>'] },
  { path: ['backup'], options: ['--out <file>', '--json'] },
  { path: ['requests', 'receive'], options: ['--as <email>', '--containers <n>', '--condition <condition>', '--reason <text>', '--temperature <celsius>', '--at <datetime>', '--json'] },
  { path: ['labels'], options: ['--out <file>'] },
  { path: ['audit'], options: ['--request <request>', '--user <user>', '--action <action>', '--since <date>', '--until <date>', '--limit <n>', '--json', '--format <format>'] },
];

describe('labctl help', () => {
  it('lists the staff and admin commands', async () => {
    const res = await labctl(['--help'], dataDir);
    expect(res.exitCode).toBe(0);
    for (const name of ['seed', 'requests', 'results', 'report', 'certificate', 'backup', 'labels', 'audit']) expect(res.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('shows every option of every command with an example', async () => {
    const helps = await Promise.all(COMMANDS.map((c) => labctl([...c.path, '--help'], dataDir)));
    COMMANDS.forEach((c, i) => {
      const { stdout, exitCode } = helps[i];
      expect(exitCode).toBe(0);
      for (const option of c.options) expect(stdout, `${c.path.join(' ')} ${option}`).toContain(option);
      expect(stdout).toMatch(new RegExp(`Examples?:\\n  \\$ labctl ${c.path.join(' ')}`));
    });
  });
});
