import { describe, expect, it } from 'vitest';
import { startMailbox } from '../helpers/mailbox.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';

describe(`labctl mail (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);

  it('keeps mail the mail server refused, reports it, and sends it again on retry', async () => {
    const mailbox = await startMailbox();
    try {
      const smtp = { env: { SMTP_URL: mailbox.url } };
      await mailbox.stop();
      const approve = await lab.run(['requests', 'approve', '7', '--as', 'staff@demo.lab'], smtp);
      expect(approve.exitCode).toBe(0);

      const waiting = JSON.parse((await lab.run(['mail', 'status', '--json'])).stdout);
      expect(waiting.counts).toEqual({ pending: 1, sent: 0, failed: 0 });
      expect(waiting.oldestPendingAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(waiting.lastError).toMatchObject({ to: 'client@demo.lab', attempts: 1, error: expect.stringMatching(/ECONNREFUSED|connect/i) });
      const text = await lab.run(['mail', 'status']);
      expect(text.stdout).toMatch(/^pending\s+1$/m);
      expect(text.stdout).toContain('last error: mail ');

      // What the worker does after its last attempt: the mail is given up until someone retries it.
      const [row] = await lab.database.db('outbox').update({ state: 'failed' }).returning('id');
      const id = Number(typeof row === 'object' ? row.id : row);
      expect((await lab.run(['mail', 'retry'])).exitCode).toBe(2);
      expect((await lab.run(['mail', 'retry', '--id', '999999'])).stderr).toContain('There is no mail 999999.');

      await mailbox.restart();
      const retry = await lab.run(['mail', 'retry', '--all-failed', '--json'], smtp);
      expect(retry.exitCode).toBe(0);
      expect(JSON.parse(retry.stdout)).toEqual({ requeued: 1, sent: 1 });
      const mail = await mailbox.waitFor('client@demo.lab', (m) => m.subject.includes('request approved'));
      expect(mail.text).toContain('Control Number: ');
      expect(mailbox.messages).toHaveLength(1);

      const again = await lab.run(['mail', 'retry', '--id', String(id)], smtp);
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toContain(`Mail ${id} is sent, not failed`);
      expect(JSON.parse((await lab.run(['mail', 'status', '--json'])).stdout).counts).toEqual({ pending: 0, sent: 1, failed: 0 });
    } finally {
      await mailbox.close();
    }
  }, 240_000);
});
