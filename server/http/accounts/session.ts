// POST /login, POST /verify-otp, GET /me, POST /logout: the signed-in session.
import type { AppDeps, AppRouter } from '../context.js';
import { inputOf, requireUser } from '../guards.js';
import { SESSION_COOKIE, sessionPolicy } from '../middleware/session.js';
import { parseInput } from '../../validation.js';
import { completeLogin, startLogin } from '../../services/accounts/login.js';
import { accountDeps } from '../../services/accounts/codes.js';
import { LIMITS, limited, limitedConcealing } from '../../services/rateLimits.js';
import { createSession, endSession } from '../../services/sessions.js';
import { LoginInput, VerifyOtpInput } from './schemas.js';
import { attemptOf } from './shared.js';

export function sessionRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  router.post('/login', async (ctx) => {
    const input = parseInput(LoginInput, inputOf(ctx));
    // Past the account-wide bound every password gets this answer; only the right one gets a code.
    await limitedConcealing(deps, LIMITS.login, attemptOf(ctx, input.identifier), () => startLogin(accounts, input.identifier, input.password));
    ctx.body = { message: 'A login code has been sent to your e-mail address.' };
  });

  router.post('/verify-otp', async (ctx) => {
    const input = parseInput(VerifyOtpInput, inputOf(ctx));
    const user = await limited(deps, LIMITS.codeCheck, attemptOf(ctx, input.username), () => completeLogin(accounts, input.username, input.otp));
    const session = await createSession(deps.db, deps.clock, sessionPolicy(deps), user.id);
    ctx.cookies.set(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.cookies.secure,
      expires: new Date(session.expiresAt),
      overwrite: true,
    });
    ctx.type = 'text/plain';
    ctx.body = `${user.role}/${user.id}`;
  });

  router.get('/me', (ctx) => {
    const user = requireUser(ctx);
    ctx.body = {
      id: user.id,
      role: user.role,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
    };
  });

  router.post('/logout', async (ctx) => {
    if (ctx.state.sessionToken) await endSession(deps.db, ctx.state.sessionToken);
    ctx.cookies.set(SESSION_COOKIE, null);
    ctx.status = 204;
  });
}
