// POST /resend-code {purpose, identifier}: a new login, registration or reset code, once a minute.
import { accountDeps, resendCode } from '../../services/accounts/codes.js';
import { LIMITS, limited } from '../../services/rateLimits.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { inputOf } from '../guards.js';
import { ResendCodeInput } from './schemas.js';
import { attemptOf } from './shared.js';

export function codeRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  router.post('/resend-code', async (ctx) => {
    const input = parseInput(ResendCodeInput, inputOf(ctx));
    await limited(deps, LIMITS.resend, attemptOf(ctx, input.identifier), () => resendCode(accounts, input.purpose, input.identifier));
    ctx.body = { message: 'A new code has been sent to your e-mail address.' };
  });
}
