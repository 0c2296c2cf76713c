// The outbox's claims on the real database: workers claiming at once never claim the same mail, and
// only the holder of a claim marks its mail sent (with the request's audit entry).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { migrateLatest } from '../../../server/db/migrate.js';
import { claimDueMail, markMailSent, queueMail } from '../../../server/db/outbox.js';
import { createLogger } from '../../../server/logger.js';
import { createMailer } from '../../../server/mail/mailer.js';
import { deliverDueMail } from '../../../server/mail/outboxWorker.js';
import { createClientAccount } from '../../../server/services/clients.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../helpers/testDatabase.js';
import { TestClock } from '../../helpers/testClock.js';

describe(`outbox claims (${databaseKind()})`, () => {
  // No app and so no outbox worker: the test claims the mail itself.
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
  });
  afterAll(() => database?.drop());

  it('never gives a due mail to two workers claiming at once, and lets only the claim holder mark it sent', async () => {
    const db = database.db;
    const client = await createClientAccount(db, new TestClock(), { email: 'buyer@example.test', username: 'buyer', password: 'x', passwordHash: 'none', firstName: 'B', lastName: 'Uyer', contactNumber: '639171234567', verified: true }, { companyName: 'Acme', ltoNo: 'LTO-1', classification: 'Importer' });
    const [{ requestId }] = await insertRequests(db, [{ clientUserId: client.id, tests: ['eColi'] }]);
    await db.transaction(async (trx) => {
      for (let i = 0; i < 6; i += 1) await queueMail(trx, { to: `m${i}@example.test`, subject: `Mail ${i}`, text: 'Hello', html: '<p>Hello</p>' }, { requestId, actorUserId: client.id });
    });

    // Two workers at once: a mail the first holds is not the second's (it may then find none, and
    // a later pass takes what is left); no mail is claimed twice, and every one is claimed once.
    const racing = await Promise.all([claimDueMail(db, 'a', 4, 60_000), claimDueMail(db, 'b', 4, 60_000)]);
    const later = await claimDueMail(db, 'c', 6, 60_000);
    const ids = [...racing.flat(), ...later].map((m) => m.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(await claimDueMail(db, 'd', 6, 60_000)).toEqual([]);
    const [first] = [...racing, later].sort((x, y) => y.length - x.length);

    // One claim token is not the holder's (its lease lapsed and another worker took the mail).
    const [stale, ...held] = first;
    await markMailSent(db, [{ ...stale, claim: 'someone else' }, ...held]);
    const states = await db('outbox').whereIn('id', first.map((m) => m.id)).orderBy('id').pluck('state');
    expect(states).toEqual(first.map((m) => (m === stale ? 'pending' : 'sent')));
    const audited = await db('audit_log').where({ request_id: requestId, action: 'mail.sent' }).orderBy('id').pluck('details');
    expect(audited.map((d: string) => JSON.parse(d).to)).toEqual(held.map((m) => m.to));
    const blanked = await db('outbox').whereIn('id', held.map((m) => m.id)).select('text_body', 'html_body', 'claimed_by', 'attempts');
    expect(blanked.every((r) => r.text_body === '' && r.html_body === '' && r.claimed_by === null && Number(r.attempts) === 1)).toBe(true);
  });

  it('sends a pass of a few mails oldest first with one claim: one statement on PostgreSQL, a read and the claim on SQLite', async () => {
    const db = database.db;
    await db('outbox').delete();
    await db.transaction(async (trx) => {
      for (let i = 0; i < 3; i += 1) await queueMail(trx, { to: `pass${i}@example.test`, subject: `Pass ${i}`, text: 'Hello', html: '<p>Hello</p>' });
    });
    const queued = await db('outbox').orderBy('id').pluck('id');
    const claimed = await claimDueMail(db, 'order', 10, 60_000);
    expect(claimed.map((m) => m.id)).toEqual(queued.map(Number));
    await db('outbox').update({ claimed_until_ms: 0, claimed_by: null });

    // Each pass runs after every commit that queued mail: its statements are a write's round trips.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-outbox-'));
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql.toLowerCase());
    db.on('query', onQuery);
    try {
      const mailer = createMailer({ from: 'NMIS Laboratory <lab@nmis.example>', outboxDir: dir, demo: false, logger: createLogger('silent') });
      expect(await deliverDueMail({ db, mailer, logger: createLogger('silent') })).toBe(3);
      expect(fs.readdirSync(dir)).toHaveLength(3);
    } finally {
      db.removeListener('query', onQuery);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ofOutbox = statements.filter((sql) => /\boutbox\b/.test(sql)).map((sql) => sql.split(' ')[0]);
    // The claim, then the marking as sent; no read of the claimed rows and no poll after a short batch.
    expect(ofOutbox).toEqual(databaseKind() === 'postgres' ? ['update', 'update'] : ['select', 'update', 'update']);
    expect(await db('outbox').whereIn('id', queued).pluck('state')).toEqual(['sent', 'sent', 'sent']);
  });
});
