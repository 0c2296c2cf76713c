import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeDatabase, loadConfig } from '../../server/config.js';
import { redactUrl, SECRET_KEYS } from '../../server/logger.js';
import { personaliseIndex } from '../../server/http/middleware/spa.js';

describe('configuration', () => {
  it('defaults to a SQLite file in the data directory', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.database).toEqual({ client: 'sqlite3', filename: path.resolve('data', 'lab.sqlite') });
    expect(c.labName).toBe('National Meat Inspection Service');
    expect(c.labShortName).toBe('NMIS');
  });

  it('lets flags override the environment', () => {
    expect(loadConfig({ PORT: '4000' }, { PORT: '5000' }).port).toBe(5000);
  });

  it('selects PostgreSQL from DATABASE_URL and describes it without the password', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://lab:secret@db.example:5433/lims' });
    expect(c.database).toEqual({ client: 'pg', connectionString: 'postgres://lab:secret@db.example:5433/lims' });
    expect(describeDatabase(c.database)).toBe('PostgreSQL db.example:5433/lims');
  });

  it('reports every bad value at once', () => {
    try {
      loadConfig({ PORT: 'http', DATABASE_URL: 'mysql://x', SMTP_URL: 'mail.example', SESSION_MAX_HOURS: '0' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const key of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'SESSION_MAX_HOURS']) expect(problems).toContain(key);
    }
  });
});

describe('request log redaction', () => {
  it('masks secret query parameters and keeps the rest', () => {
    expect(redactUrl('/login?identifier=a%40b.c&password=hunter2')).toBe('/login?identifier=a%40b.c&password=%5Bredacted%5D');
    expect(redactUrl('/change-password?email=x&newPassword=p&otp=123456')).not.toMatch(/=p(&|$)|123456/);
    expect(redactUrl('/healthz')).toBe('/healthz');
    // Nothing secret: the URL exactly as called.
    expect(redactUrl('/requests/queue/for-testing?limit=50&q=2026-00&after=a+b')).toBe('/requests/queue/for-testing?limit=50&q=2026-00&after=a+b');
  });

  it("never lets a secret parameter's value through, whatever the case or percent-encoding of its name", () => {
    const name = fc.constantFrom(...SECRET_KEYS).chain((key) =>
      fc.tuple(fc.array(fc.boolean(), { minLength: key.length, maxLength: key.length }), fc.array(fc.boolean(), { minLength: key.length, maxLength: key.length })).map(([upper, encoded]) =>
        [...key].map((c, i) => (encoded[i] ? `%${c.charCodeAt(0).toString(16)}` : upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
      ),
    );
    const other = fc.record({ key: fc.constantFrom('limit', 'q', 'identifier', 'codes', 'passwords'), value: fc.stringMatching(/^[a-z0-9-]{0,8}$/) });
    fc.assert(
      fc.property(name, fc.array(other, { maxLength: 4 }), fc.nat(4), (secretName, others, at) => {
        const params = others.map((p) => `${p.key}=${p.value}`);
        params.splice(Math.min(at, params.length), 0, `${secretName}=SECRET-VALUE-42`);
        expect(redactUrl(`/login?${params.join('&')}`)).not.toContain('SECRET-VALUE-42');
      }),
    );
  });
});

describe('portal page', () => {
  it('carries the configured laboratory names, escaped', () => {
    const html = '<meta name="lab-name" content="National Meat Inspection Service" />\n<meta name="lab-short-name" content="NMIS" />';
    const out = personaliseIndex(html, { labName: 'Bureau "A" & Co', labShortName: 'BAI' });
    expect(out).toContain('<meta name="lab-name" content="Bureau &quot;A&quot; &amp; Co" />');
    expect(out).toContain('<meta name="lab-short-name" content="BAI" />');
  });

  it('paints the configured name in the frame shown before the scripts run', async () => {
    const { readFile } = await import('node:fs/promises');
    const html = await readFile(new URL('../../ui/index.html', import.meta.url), 'utf8');
    const out = personaliseIndex(html, { labName: 'Bureau <A> & Co', labShortName: 'BAI' });
    expect(out).toContain('<span class="brand-title">Bureau &lt;A> &amp; Co</span>');
    expect(out).not.toContain('National Meat Inspection Service');
  });
});
