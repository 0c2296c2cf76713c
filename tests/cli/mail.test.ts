import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startMailbox } from '../helpers/mailbox.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { createLogger } from '../../server/logger.js';
import { createMailer } from '../../server/mail/mailer.js';
import { deliverDueMail } from '../../server/mail/outboxWorker.js';
import { labctlEnv, labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';
import { labctlProcess } from './labctl.js';

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

describe(`labctl mail retry --now (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);

  /** Approves request 7 (mail to the client queued) and gives that mail up, as the worker does after its last attempt. */
  async function failedMail(): Promise<number> {
    expect((await lab.run(['requests', 'approve', '7', '--as', 'staff@demo.lab'])).exitCode).toBe(0);
    const [row] = await lab.database.db('outbox').update({ state: 'failed', attempts: 12, last_error: 'connect ECONNREFUSED' }).returning('id');
    return Number(typeof row === 'object' ? row.id : row);
  }

  it('refuses without SMTP_URL: mail leaves only with the server\'s settings', async () => {
    const id = await failedMail();
    const res = await lab.run(['mail', 'retry', '--id', String(id), '--now']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('labctl mail retry --now sends through the SMTP server of SMTP_URL, and none is set here.');
    expect(await lab.database.db('outbox').first('state')).toEqual({ state: 'failed' });
  });

  it('sends now through the outbox worker with SMTP_URL and MAIL_FROM, reporting each mail', async () => {
    const mailbox = await startMailbox();
    try {
      const id = await failedMail();
      const env = { SMTP_URL: mailbox.url, MAIL_FROM: 'Laboratory <portal@lab.example.org>' };
      const res = await lab.run(['mail', 'retry', '--all-failed', '--now', '--json'], { env });
      expect(res.exitCode).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({
        requeued: 1,
        mails: [{ id, to: 'client@demo.lab', subject: expect.stringContaining('request approved'), state: 'sent', sentNow: true, error: null }],
      });
      expect(res.stderr).toBe('');
      const mail = await mailbox.waitFor('client@demo.lab', (m) => m.subject.includes('request approved'));
      // The worker's own headers: the sender of the env file and the outbox row's stable Message-ID.
      expect(mail.raw).toMatch(/^From: Laboratory <portal@lab\.example\.org>/m);
      expect(mail.raw).toMatch(new RegExp(`^Message-ID: <outbox-${id}-[0-9a-f]{16}@lab\\.example\\.org>`, 'm'));
      // Marked sent and audited on the request's timeline, as the server's worker does.
      expect(await lab.database.db('outbox').where({ id }).first('state', 'text_body')).toEqual({ state: 'sent', text_body: '' });
      expect(Number((await lab.database.db('audit_log').where({ action: 'mail.sent', request_id: 7 }).count({ n: '*' }).first())!.n)).toBe(1);
    } finally {
      await mailbox.close();
    }
  }, 60_000);

  it('reports a mail it could not send in a readable line, never a JSON log line, and exits 1', async () => {
    const id = await failedMail();
    // A port nobody listens on: the SMTP connection is refused at once.
    const closed = net.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}`, LOG_FORMAT: 'json', LOG_LEVEL: 'warn' };
    const res = await lab.run(['mail', 'retry', '--id', String(id), '--now'], { env });
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toMatch(new RegExp(`^mail ${id} to client@demo\\.lab \\(.*request approved.*\\): not sent: .*ECONNREFUSED.* \\(queued again: the server retries it\\)$`));
    const stderr = res.stderr.split('\n');
    expect(stderr.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(stderr).toContainEqual(expect.stringMatching(new RegExp(`^WARN \\d\\d:\\d\\d:\\d\\d mail not sent err=".*ECONNREFUSED.*" outboxId=${id} to=client@demo\\.lab attempts=1 giveUp=false$`)));
    expect(stderr.at(-1)).toBe('Error: 1 of 1 mails not sent; see labctl mail status for the last error.');
    expect(await lab.database.db('outbox').where({ id }).first('state', 'attempts')).toEqual({ state: 'pending', attempts: 1 });

    // With --json the same failure is the per-mail result on stdout and one JSON error on stderr.
    await lab.database.db('outbox').update({ state: 'failed' });
    const json = await lab.run(['mail', 'retry', '--id', String(id), '--now', '--json'], { env });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).mails[0]).toMatchObject({ id, state: 'pending', sentNow: false, error: expect.stringContaining('ECONNREFUSED') });
    expect(JSON.parse(json.stderr)).toEqual({ error: { message: '1 of 1 mails not sent; see labctl mail status for the last error.', code: 'failed' } });

    // The real process writes its logs through pino's own writer: still a readable line in human mode.
    await lab.database.db('outbox').update({ state: 'failed' });
    const proc = await labctlProcess(['mail', 'retry', '--id', String(id), '--now'], lab.dataDir, { env: { ...labctlEnv(lab.database), ...env } });
    expect(proc.exitCode).toBe(1);
    expect(proc.stdout).toContain('not sent: ');
    expect(proc.stderr.split('\n').filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(proc.stderr).toMatch(/^WARN \d\d:\d\d:\d\d mail not sent /m);
  }, 60_000);
});
