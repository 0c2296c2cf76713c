import { z } from 'zod';

export const LoginInput = z.object({
  identifier: z.string().trim().min(1, 'enter your e-mail or username').max(254),
  password: z.string().min(1, 'enter your password').max(200),
});

export const VerifyOtpInput = z.object({
  username: z.string().trim().min(1, 'missing identifier').max(254),
  otp: z.string().trim().regex(/^\d{6}$/, 'the code has 6 digits'),
});
