import { describe, expect, it } from 'vitest';
import { startMailbox } from '../helpers/mailbox.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { createLogger } from '../../server/logger.js';
import { createMailer } from '../../server/mail/mailer.js';
import { deliverDueMail } from '../../server/mail/outboxWorker.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';

describe(`labctl mail (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);

  it('only queues mail: commands never send it, retry puts failed mail back for the server', async () => {
    const mailbox = await startMailbox();
    try {
      // Even with a working SMTP_URL in the admin's shell, the command leaves the mail to the server.
      const smtp = { env: { SMTP_URL: mailbox.url } };
      const approve = await lab.run(['requests', 'approve', '7', '--as', 'staff@demo.lab'], smtp);
      expect(approve.exitCode).toBe(0);
      expect(mailbox.messages).toEqual([]);

      const waiting = JSON.parse((await lab.run(['mail', 'status', '--json'])).stdout);
      expect(waiting).toEqual({ counts: { pending: 1, sent: 0, failed: 0 }, oldestPendingAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), lastError: null });
      const text = await lab.run(['mail', 'status']);
      expect(text.stdout).toMatch(/^pending\s+1$/m);
      expect(text.stdout).toContain('last error: -');

      // What the server's worker does after its last attempt: the mail is given up until someone retries it.
      const [row] = await lab.database.db('outbox').update({ state: 'failed', attempts: 12, last_error: 'connect ECONNREFUSED' }).returning('id');
      const id = Number(typeof row === 'object' ? row.id : row);
      expect((await lab.run(['mail', 'retry'])).exitCode).toBe(2);
      expect((await lab.run(['mail', 'retry', '--id', '999999'])).stderr).toContain('There is no mail 999999.');

      const human = await lab.run(['mail', 'retry', '--id', String(id)], smtp);
      expect(human.exitCode).toBe(0);
      expect(human.stderr).toBe('Put 1 mail back in the queue; the running server (labctl serve) sends it within seconds. See labctl mail status.');
      await lab.database.db('outbox').update({ state: 'failed' });
      const retry = await lab.run(['mail', 'retry', '--all-failed', '--json'], smtp);
      expect(retry.exitCode).toBe(0);
      expect(JSON.parse(retry.stdout)).toEqual({ requeued: 1 });
      expect(await lab.database.db('outbox').first('state', 'attempts')).toEqual({ state: 'pending', attempts: 0 });
      expect(mailbox.messages).toEqual([]);

      // The server's worker (labctl serve runs it) sends what the commands queued.
      const mailer = createMailer({ smtpUrl: mailbox.url, from: 'lab@demo.lab', outboxDir: '', demo: false, logger: createLogger('silent') });
      expect(await deliverDueMail({ db: lab.database.db, mailer, logger: createLogger('silent') })).toBe(1);
      mailer.close();
      const mail = await mailbox.waitFor('client@demo.lab', (m) => m.subject.includes('request approved'));
      expect(mail.text).toContain('Control Number: ');

      const again = await lab.run(['mail', 'retry', '--id', String(id)], smtp);
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toContain(`Mail ${id} is sent, not failed`);
      expect(JSON.parse((await lab.run(['mail', 'status', '--json'])).stdout).counts).toEqual({ pending: 0, sent: 1, failed: 0 });
    } finally {
      await mailbox.close();
    }
  }, 240_000);
});
