// One-time codes under attack: parallel guesses share no try, and codes are stored as keyed hashes,
// not as plain hashes anyone reverses.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecret } from '../../../server/services/serverSecret.js';
import { MAX_CODE_ATTEMPTS } from '../../../server/services/oneTimeCodes.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { PASSWORD, codeFor, otherThan } from '../accounts/support.js';

describe(`one-time codes (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function loginCode(email: string) {
    expect((await app.anonymous().post('/login', { identifier: email, password: PASSWORD })).status).toBe(200);
    return codeFor(app, email, 'login');
  }

  it('refuses the right code after parallel wrong guesses used up its tries', async () => {
    const user = await app.createUser('client');
    const code = await loginCode(user.email);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () => app.anonymous().post('/verify-otp', { username: user.email, otp: otherThan(code) })),
    );
    expect(guesses.map((g) => g.status)).toEqual(Array(8).fill(401));
    const right = await app.anonymous().post('/verify-otp', { username: user.email, otp: code });
    expect(right.status).toBe(401);
    const stored = await app.db('one_time_codes').where({ user_id: user.id, purpose: 'login' }).first('attempts', 'consumed_at');
    expect(Number(stored.attempts)).toBe(MAX_CODE_ATTEMPTS);
    expect(stored.consumed_at).not.toBeNull();
  });

  it('still accepts the right code on the last try', async () => {
    const user = await app.createUser('client');
    const code = await loginCode(user.email);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i += 1) {
      expect((await app.anonymous().post('/verify-otp', { username: user.email, otp: otherThan(code) })).status).toBe(401);
    }
    expect((await app.anonymous().post('/verify-otp', { username: user.email, otp: code })).status).toBe(200);
  });

  it('stores the code as an HMAC under the server secret, not as a plain hash a copy of the database reverses', async () => {
    const user = await app.createUser('client');
    const code = await loginCode(user.email);
    const { code_hash: stored } = await app.db('one_time_codes').where({ user_id: user.id, purpose: 'login' }).first('code_hash');
    expect(stored).not.toBe(crypto.createHash('sha256').update(`login:${code}`).digest('hex'));
    const secret = await serverSecret(app);
    expect((await app.db('settings').where({ key: 'server_secret' }).first('value')).value).toBe(secret);
    expect(stored).toBe(crypto.createHmac('sha256', secret).update(`login:${code}`).digest('hex'));
  });

  it('keys the hash with SECRET_KEY when it is set', async () => {
    const secretKey = 'k'.repeat(40);
    const keyed = await startTestApp({ SECRET_KEY: secretKey });
    try {
      const user = await keyed.createUser('client');
      expect((await keyed.anonymous().post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
      const code = await codeFor(keyed, user.email, 'login');
      const { code_hash: stored } = await keyed.db('one_time_codes').where({ user_id: user.id }).first('code_hash');
      expect(stored).toBe(crypto.createHmac('sha256', secretKey).update(`login:${code}`).digest('hex'));
      // SECRET_KEY is the secret: none is generated into the database.
      expect(await keyed.db('settings').where({ key: 'server_secret' })).toEqual([]);
    } finally {
      await keyed.close();
    }
  });
});
