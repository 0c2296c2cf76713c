// Shared steps of the account API tests.
import type { RegistrationPayload } from '../../../server/domain/accountRules.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import type { TestApp } from '../../helpers/testApp.js';

export const PASSWORD = 'correct horse battery';

const SUBJECTS = { login: 'Your login code', register: 'Verify your e-mail address', reset: 'Your password reset code' } as const;

/** The code of the newest mail of `kind` to `email` (the server sends before it answers). */
export const codeFor = (app: TestApp, email: string, kind: keyof typeof SUBJECTS) => app.mailbox.codeFor(email, SUBJECTS[kind]);

/** A 6-digit code that is certainly not `code`. */
export const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

let sequence = 0;

/** A valid POST /clients body with a fresh e-mail and username. */
export function registration(overrides: { user?: Partial<RegistrationPayload['user']>; client?: Partial<RegistrationPayload['client']> } = {}): RegistrationPayload {
  sequence += 1;
  const tag = `${process.pid}x${sequence}`;
  return {
    user: {
      username: `newclient${tag}`,
      firstName: 'Nora',
      middleName: 'Q',
      lastName: 'Villanueva',
      contactNumber: '(+63) 917 555 0101',
      email: `new.client.${tag}@example.test`,
      password: PASSWORD,
      userType: 'CLIENT',
      deletionStatus: 'ACTIVE',
      ...overrides.user,
    },
    client: { companyName: 'Villanueva Meats', ltoNo: 'lto-77', classification: 'Meat Dealer', ...overrides.client },
  };
}

/** Password then e-mailed code; resolves with the answer of POST /verify-otp. */
export async function logIn(app: TestApp, http: HttpClient, identifier: string, email: string, password = PASSWORD) {
  const login = await http.post('/login', { identifier, password });
  if (login.status !== 200) throw new Error(`POST /login answered ${login.status}: ${login.text}`);
  const otp = await codeFor(app, email, 'login');
  return http.post('/verify-otp', { username: identifier, otp });
}
