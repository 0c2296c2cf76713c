import { z } from 'zod';
import { OtpField, PasswordField } from '../../domain/accountRules.js';
import { IdSchema } from '../../domain/ids.js';
import { ROLES } from '../../domain/roles.js';
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

// Answers (DESIGN.md section 6): what the account calls send back, described for the API reference.

/** POST /verify-otp's text: `userType/userId`, e.g. `client/12` (SPEC section 7). */
export const SESSION_TEXT_EXAMPLE = 'client/12';

export const MeBody = z
  .object({
    id: z.number().int(),
    role: z.enum(ROLES),
    username: z.string().nullable(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
  })
  .meta({ example: { id: 12, role: 'client', username: 'meatco', email: 'juan@example.com', firstName: 'Juan', lastName: 'Cruz' } });

export const RegisteredBody = z
  .object({ message: z.string(), userId: z.number().int(), email: z.string() })
  .meta({ example: { message: 'Registered. Enter the code we sent to your e-mail address to verify it.', userId: 12, email: 'juan@example.com' } });

/** GET clientview/{userId} (SPEC section 3's client view) and the answer of PUT clientview/{userId}/address. */
export const ClientProfileBody = z
  .object({
    username: z.string().nullable(),
    contactNumber: z.string(),
    email: z.string(),
    companyName: z.string(),
    ltoNumber: z.string(),
    classification: z.string(),
    address: z.string().nullable(),
  })
  .meta({
    example: {
      username: 'meatco',
      contactNumber: '639171234567',
      email: 'juan@example.com',
      companyName: 'Meat Co.',
      ltoNumber: 'LTO-123',
      classification: 'Meat Processing Plant',
      address: null,
    },
  });
