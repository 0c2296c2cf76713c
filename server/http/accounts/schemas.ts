import { z } from 'zod';
import { OtpField, PasswordField } from '../../domain/accountRules.js';
import { IdSchema } from '../../domain/ids.js';
import { CODE_KINDS } from '../../services/accounts/codes.js';

/** An e-mail address or a username, as the login and reset calls accept either. */
const Identifier = (what: string) => z.string().trim().min(1, `enter your ${what}`).max(254, 'use at most 254 characters');

export const LoginInput = z.object({
  identifier: Identifier('e-mail or username'),
  password: z.string().min(1, 'enter your password').max(200),
});

export const VerifyOtpInput = z.object({
  username: z.string().trim().min(1, 'missing identifier').max(254),
  otp: OtpField,
});

export const CheckUserInput = z.object({ identifier: Identifier('e-mail address') });

/** POST /verify-otp-password and POST /clientverify. */
export const EmailCodeInput = z.object({ email: Identifier('e-mail address'), otp: OtpField });

export const ChangePasswordInput = z.object({ email: Identifier('e-mail address'), newPassword: PasswordField });

export const ResendCodeInput = z.object({
  purpose: z.enum(CODE_KINDS, `use one of ${CODE_KINDS.join(', ')}`),
  identifier: Identifier('e-mail or username'),
});

export const UserIdParam = z.object({ userId: IdSchema });
