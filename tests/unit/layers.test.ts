// The layers of DESIGN.md section 3 are enforced by lint (eslint.config.js): a wrong import fails
// `npm run lint`, and the real tree keeps to them.
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' || ruleId === 'no-restricted-syntax' });

/** The layer messages `code` gets when it is the file at `filePath`. */
async function layerProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const cases: Array<{ file: string; imports: string; allowed: boolean }> = [
  // server/domain: only server/domain and pure packages.
  { file: 'server/domain/x.ts', imports: './catalog.js', allowed: true },
  { file: 'server/domain/x.ts', imports: 'zod', allowed: true },
  { file: 'server/domain/x.ts', imports: '../db/knex.js', allowed: false },
  { file: 'server/domain/x.ts', imports: '../services/users.js', allowed: false },
  { file: 'server/domain/x.ts', imports: '../errors.js', allowed: false },
  { file: 'server/domain/x.ts', imports: 'knex', allowed: false },
  { file: 'server/domain/x.ts', imports: 'node:fs', allowed: false },
  { file: 'server/domain/x.ts', imports: 'fs/promises', allowed: false },
  { file: 'server/domain/x.ts', imports: 'better-sqlite3', allowed: false },
  { file: 'server/domain/x.ts', imports: 'pdfkit', allowed: false },
  { file: 'server/domain/x.ts', imports: 'qrcode', allowed: false },
  { file: 'server/domain/x.ts', imports: '@koa/router', allowed: false },
  { file: 'server/domain/x.ts', imports: 'csv-parse/sync', allowed: true },
  // db: the bottom layer, below services, http and mail.
  { file: 'server/db/x.ts', imports: '../domain/catalog.js', allowed: true },
  { file: 'server/db/migrations/x.ts', imports: '../appendOnly.js', allowed: true },
  { file: 'server/db/x.ts', imports: '../services/users.js', allowed: false },
  { file: 'server/db/migrations/x.ts', imports: '../../http/paging.js', allowed: false },
  { file: 'server/db/x.ts', imports: '../mail/mailer.js', allowed: false },
  { file: 'server/db/x.ts', imports: '../../cli/runtime.js', allowed: false },
  // ui: server/domain only.
  { file: 'ui/pages/client/X.tsx', imports: '../../../server/domain/catalog.js', allowed: true },
  { file: 'ui/pages/client/X.tsx', imports: '../../../server/services/users.js', allowed: false },
  { file: 'ui/X.tsx', imports: '../server/http/paging.js', allowed: false },
  { file: 'ui/X.tsx', imports: '../cli/main.js', allowed: false },
  // services: never http or cli.
  { file: 'server/services/requests/x.ts', imports: '../../domain/policies.js', allowed: true },
  { file: 'server/services/requests/x.ts', imports: '../../db/transaction.js', allowed: true },
  { file: 'server/services/requests/x.ts', imports: '../../http/paging.js', allowed: false },
  { file: 'server/services/x.ts', imports: '../http/guards.js', allowed: false },
  { file: 'server/services/x.ts', imports: '../../cli/runtime.js', allowed: false },
  // mail: never services.
  { file: 'server/mail/x.ts', imports: '../domain/accountRules.js', allowed: true },
  { file: 'server/mail/x.ts', imports: '../services/oneTimeCodes.js', allowed: false },
  // the rest of server: never cli.
  { file: 'server/http/requests/x.ts', imports: '../../services/requests/read.js', allowed: true },
  { file: 'server/http/requests/x.ts', imports: '../../../cli/runtime.js', allowed: false },
  // http reaches the database only through services.
  { file: 'server/http/requests/x.ts', imports: '../../db/transaction.js', allowed: false },
  { file: 'server/http/x.ts', imports: '../db/knex.js', allowed: false },
  { file: 'server/app.ts', imports: '../cli/runtime.js', allowed: false },
  // cli may use any of the server.
  { file: 'cli/commands/x.ts', imports: '../../server/services/users.js', allowed: true },
];

describe('import layers enforced by lint', { timeout: 60_000 }, () => {
  it.each(cases)('$file importing $imports: allowed $allowed', async ({ file, imports, allowed }) => {
    const problems = await layerProblems(file, `import { thing } from '${imports}';\nexport const used = thing;\n`);
    if (allowed) expect(problems).toEqual([]);
    else expect(problems).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });

  it.each(cases)('$file loading $imports with import(): allowed $allowed', async ({ file, imports, allowed }) => {
    const problems = await layerProblems(file, `export const load = () => import('${imports}');\n`);
    if (allowed) expect(problems).toEqual([]);
    else expect(problems).toEqual([expect.stringMatching(/^no-restricted-syntax: /)]);
  });

  it('also refuses a type-only import and a re-export across a layer', async () => {
    expect(await layerProblems('server/mail/x.ts', `import type { User } from '../services/users.js';\nexport type U = User;\n`)).toHaveLength(1);
    expect(await layerProblems('server/domain/x.ts', `export { can } from '../services/users.js';\n`)).toHaveLength(1);
  });

  it('finds no wrong import in the real tree', { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(['server', 'ui', 'cli']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`));
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(100);
  });
});
