// GET /check-user, POST /verify-otp-password, POST /change-password: the forgotten-password flow.
// The reset grant travels in its own cookie, HttpOnly and SameSite=Strict, sent only to
// /change-password, so neither scripts nor other sites can use it.
import { CODE_TTL_MINUTES } from '../../domain/accountRules.js';
import { resetPassword, startPasswordReset, verifyResetCode } from '../../services/accounts/passwordReset.js';
import { accountDeps } from '../../services/accounts/codes.js';
import { LIMITS, limited } from '../../services/rateLimits.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { inputOf } from '../guards.js';
import { json, MessageBody, route } from '../route.js';
import { ChangePasswordInput, CheckUserInput, EmailCodeInput } from './schemas.js';
import { attemptOf } from './shared.js';

export const RESET_COOKIE = 'lab_reset';
const RESET_COOKIE_PATH = '/change-password';

export function passwordResetRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  route(
    router,
    {
      method: 'get',
      path: '/check-user',
      open: true,
      summary: 'Starts a password reset: e-mails a reset code to an active account.',
      query: CheckUserInput,
      responses: { 200: json('The reset code was sent.', MessageBody) },
      errors: [404, 429],
    },
    async (ctx) => {
      const input = parseInput(CheckUserInput, inputOf(ctx));
      await limited(deps, LIMITS.checkUser, attemptOf(ctx, input.identifier), () => startPasswordReset(accounts, input.identifier));
      ctx.body = { message: 'A password reset code has been sent to your e-mail address.' };
    },
  );

  route(
    router,
    {
      method: 'post',
      path: '/verify-otp-password',
      open: true,
      summary: 'Checks a reset code and grants a password change (the lab_reset cookie).',
      body: EmailCodeInput,
      responses: { 200: json('The code is right.', MessageBody) },
      errors: [401, 429],
    },
    async (ctx) => {
      const input = parseInput(EmailCodeInput, inputOf(ctx));
      const grant = await limited(deps, LIMITS.codeCheck, attemptOf(ctx, input.email), () => verifyResetCode(accounts, input.email, input.otp));
      ctx.cookies.set(RESET_COOKIE, grant, {
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.cookies.secure,
        path: RESET_COOKIE_PATH,
        maxAge: CODE_TTL_MINUTES * 60_000,
        overwrite: true,
      });
      ctx.body = { message: 'Code accepted. You can now choose a new password.' };
    },
  );

  route(
    router,
    {
      method: 'post',
      path: '/change-password',
      open: true,
      summary: 'Sets a new password with the reset grant.',
      body: ChangePasswordInput,
      responses: { 200: json('The password is changed.', MessageBody) },
      errors: [401, 404],
    },
    async (ctx) => {
      const input = parseInput(ChangePasswordInput, inputOf(ctx));
      await resetPassword(accounts, input.email, ctx.cookies.get(RESET_COOKIE), input.newPassword, ctx.ip);
      ctx.cookies.set(RESET_COOKIE, null, { path: RESET_COOKIE_PATH });
      ctx.body = { message: 'Your password has been changed. You can now log in with it.' };
    },
  );
}
