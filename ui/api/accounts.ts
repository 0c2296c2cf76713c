/**
 * The account calls of SPEC section 7 beyond login itself (which is in ./session.ts): password
 * reset, registration and resending codes (the client profile is getClientProfile of ./requests.ts).
 * Parameters travel in JSON bodies (the server also accepts them in the query), so no secret ever
 * appears in a URL.
 */
import type { RegistrationPayload } from '../../server/domain/accountRules.js';
import { getJson, postJson, segment, withQuery } from './http.js';

interface Message {
  message: string;
}

/** The kinds of e-mailed code: login, registration and password reset. */
export type CodeKind = 'login' | 'register' | 'reset';

/** GET /check-user: resolves when the account exists (a reset code was e-mailed); ApiError 404 when it does not. */
export async function checkUser(identifier: string): Promise<void> {
  await getJson<Message>(withQuery('/check-user', { identifier }));
}

/** POST /verify-otp-password: on success the server keeps a reset grant in an HttpOnly cookie. */
export async function verifyResetCode(email: string, otp: string): Promise<void> {
  await postJson<Message>('/verify-otp-password', { email, otp });
}

/** POST /change-password: needs the reset grant of verifyResetCode for the same e-mail. */
export async function changePassword(email: string, newPassword: string): Promise<void> {
  await postJson<Message>('/change-password', { email, newPassword });
}

export interface Registered extends Message {
  userId: number;
  email: string;
}

/** POST /clients: creates the unverified client and e-mails its registration code. */
export function registerClient(payload: RegistrationPayload): Promise<Registered> {
  return postJson<Registered>('/clients', payload);
}

/** POST /clientverify: completes the registration. */
export async function verifyRegistration(email: string, otp: string): Promise<void> {
  await postJson<Message>('/clientverify', { email, otp });
}

/** POST /resend-code: a new code of the kind (the server allows one a minute). */
export async function resendCode(purpose: CodeKind, identifier: string): Promise<void> {
  await postJson<Message>('/resend-code', { purpose, identifier });
}

/** Path of the reset code screen for an e-mail. */
export const forgotPassPath = (email: string) => `/tfa-forgot-pass/${segment(email)}`;

/** Path of the new password screen for an e-mail. */
export const changePassPath = (email: string) => `/change-pass/${segment(email)}`;
