// A retried mail carries the Message-ID of its first attempt, so a receiver that got both (a send
// whose answer was lost) can drop the copy. The mail server here refuses the first DATA it reads.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../../server/db/migrate.js';
import { queueMail } from '../../../server/db/outbox.js';
import { createLogger } from '../../../server/logger.js';
import { createMailer } from '../../../server/mail/mailer.js';
import { deliverDueMail } from '../../../server/mail/outboxWorker.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../helpers/testDatabase.js';

/** An SMTP server answering 451 to the first message and accepting the rest; keeps each attempt's Message-ID. */
async function refusingOnce() {
  const attempts: { messageId: string; accepted: boolean }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const messageId = /^Message-ID:\s*(\S+)/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
        const accepted = attempts.length > 0;
        attempts.push({ messageId, accepted });
        if (accepted) return callback();
        callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, attempts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe(`Message-ID of outbox mail (${databaseKind()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
  });
  afterAll(() => database?.drop());

  it('is the same on the attempt that failed and the retry that was accepted', async () => {
    const smtp = await refusingOnce();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'NMIS Laboratory <lab@nmis.example>', outboxDir: '', demo: false, logger: createLogger('silent') });
    try {
      await database.db.transaction((trx) => queueMail(trx, { to: 'client@example.test', subject: 'Your request', text: 'Hello', html: '<p>Hello</p>' }));
      const worker = { db: database.db, mailer, logger: createLogger('silent') };
      expect(await deliverDueMail(worker)).toBe(0);
      expect(await database.db('outbox').first('state', 'attempts')).toEqual({ state: 'pending', attempts: 1 });
      // The retry's time has come (the worker waits retryBaseMs after a first failure).
      await database.db('outbox').update({ next_attempt_ms: 0 });
      expect(await deliverDueMail(worker)).toBe(1);
      expect(smtp.attempts.map((a) => a.accepted)).toEqual([false, true]);
      const [first, second] = smtp.attempts.map((a) => a.messageId);
      expect(first).toMatch(/^<outbox-\d+-[0-9a-f]{16}@nmis\.example>$/);
      expect(second).toBe(first);
      expect(await database.db('outbox').pluck('state')).toEqual(['sent']);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});
