// The generated OpenAPI document passes `redocly lint` (the recommended rules, with the exceptions
// redocly.yaml names and justifies) with no error and no warning: the document is built from the
// app's routers, written to a temporary file and linted as a reviewer would lint /openapi.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { apiDocument } from '../helpers/contract.js';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the OpenAPI document', () => {
  it('passes redocly lint with 0 errors and 0 warnings', async () => {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(apiDocument()));
    const run = await execa(path.join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=json'], {
      cwd: root,
      reject: false,
      env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.exitCode).toBe(0);
  }, 30_000);
});
