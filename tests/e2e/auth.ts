/**
 * Signing in without the UI: the two API steps of the login (password, then the e-mailed code)
 * through `page.request`, which shares the browser context's cookies, then the local storage
 * values the portal routes by.
 */
import type { Page } from '@playwright/test';
import { expect, extractCode, type DemoAccount, type Lab } from './fixtures.js';

export interface SignedIn {
  userId: string;
  /** Lower-case role, as POST /verify-otp answered it ('client', 'staff', ...). */
  userType: string;
}

/** Reads the login code e-mailed to `email` after `mark` (see Mailbox.mark()). */
export async function readLoginCode(lab: Lab, email: string, mark: number): Promise<string> {
  const mail = await lab.mailbox.waitFor(email, (m) => extractCode(m.text) !== null, { after: mark });
  const code = extractCode(mail.text);
  if (!code) throw new Error(`No 6-digit code in the mail to ${email}: ${mail.text}`);
  return code;
}

/** Splits `userType/userId` (the answer of POST /verify-otp). */
export function parseLoginAnswer(text: string): SignedIn {
  const answer = text.trim();
  const slash = answer.indexOf('/');
  const userType = (slash >= 0 ? answer.slice(0, slash) : '').trim().toLowerCase();
  const userId = (slash >= 0 ? answer.slice(slash + 1) : '').trim();
  if (!userType || !/^[0-9]+$/.test(userId)) throw new Error(`Unexpected POST /verify-otp answer: ${JSON.stringify(text)}`);
  return { userId, userType };
}

/**
 * Signs `email` in: POST /login, the code from the mailbox, POST /verify-otp, then sets
 * localStorage userId/userType/responseData on the portal's origin. It does so on the origin's
 * robots.txt, a plain text document: loading the portal itself there would start the whole app for
 * nothing, in each of the hundred sign-ins of these tests. The caller opens its screen next.
 */
export async function signIn(page: Page, lab: Lab, email: string, password: string): Promise<SignedIn> {
  const mark = lab.mailbox.mark();
  const login = await page.request.post('/login', { data: { identifier: email, password } });
  expect(login.ok(), `POST /login for ${email}: ${login.status()} ${await login.text()}`).toBe(true);

  const otp = await readLoginCode(lab, email, mark);
  const verify = await page.request.post('/verify-otp', { data: { username: email, otp } });
  const answer = await verify.text();
  expect(verify.ok(), `POST /verify-otp for ${email}: ${verify.status()} ${answer}`).toBe(true);
  const user = parseLoginAnswer(answer);

  await page.goto('/robots.txt');
  await page.evaluate(
    ({ userId, userType, responseData }) => {
      localStorage.setItem('responseData', responseData);
      localStorage.setItem('userId', userId);
      localStorage.setItem('userType', userType);
    },
    { ...user, responseData: answer.trim() },
  );
  return user;
}

/** signIn with a demo account (`lab.demo.staff`, ...). */
export function signInAs(page: Page, lab: Lab, account: DemoAccount): Promise<SignedIn> {
  return signIn(page, lab, account.email, account.password);
}

/** The local storage values the portal keeps about the login. */
export async function storedLogin(page: Page): Promise<{ userId: string | null; userType: string | null; responseData: string | null }> {
  return page.evaluate(() => ({
    userId: localStorage.getItem('userId'),
    userType: localStorage.getItem('userType'),
    responseData: localStorage.getItem('responseData'),
  }));
}
