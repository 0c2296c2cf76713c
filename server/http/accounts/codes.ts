// POST /resend-code {purpose, identifier}: a new login, registration or reset code, once a minute.
import { accountDeps, resendCode } from '../../services/accounts/codes.js';
import { LIMITS, limited } from '../../services/rateLimits.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { inputOf } from '../guards.js';
import { json, MessageBody, route } from '../route.js';
import { ResendCodeInput } from './schemas.js';
import { attemptOf } from './shared.js';

export function codeRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  route(
    router,
    {
      method: 'post',
      path: '/resend-code',
      open: true,
      summary: 'Sends a login, registration or reset code again (with a cooldown).',
      body: ResendCodeInput,
      responses: { 200: json('A new code was sent.', MessageBody) },
      errors: [429],
    },
    async (ctx) => {
      const input = parseInput(ResendCodeInput, inputOf(ctx));
      await limited(deps, LIMITS.resend, attemptOf(ctx, input.identifier), () => resendCode(accounts, input.purpose, input.identifier));
      ctx.body = { message: 'A new code has been sent to your e-mail address.' };
    },
  );
}
