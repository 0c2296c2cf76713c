// POST /login, POST /verify-otp, GET /me, POST /logout: the signed-in session.
import type { AppDeps, AppRouter } from '../context.js';
import { inputOf, requireUser } from '../guards.js';
import { SESSION_COOKIE, sessionPolicy } from '../middleware/session.js';
import { json, MessageBody, route, text } from '../route.js';
import { parseInput } from '../../validation.js';
import { completeLogin, startLogin } from '../../services/accounts/login.js';
import { accountDeps } from '../../services/accounts/codes.js';
import { LIMITS, limited, limitedConcealing } from '../../services/rateLimits.js';
import { createSession, endSession } from '../../services/sessions.js';
import { LoginInput, MeBody, SESSION_TEXT_EXAMPLE, VerifyOtpInput } from './schemas.js';
import { attemptOf } from './shared.js';

export function sessionRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  route(
    router,
    { method: 'post', path: '/login', open: true, summary: 'Checks the password and e-mails a login code.', body: LoginInput, responses: { 200: json('The code was sent.', MessageBody) }, errors: [401, 429] },
    async (ctx) => {
      const input = parseInput(LoginInput, inputOf(ctx));
      // Past the account-wide bound every password gets this answer; only the right one gets a code.
      await limitedConcealing(deps, LIMITS.login, attemptOf(ctx, input.identifier), () => startLogin(accounts, input.identifier, input.password));
      ctx.body = { message: 'A login code has been sent to your e-mail address.' };
    },
  );

  route(
    router,
    {
      method: 'post',
      path: '/verify-otp',
      open: true,
      summary: 'Finishes a login with the e-mailed code and opens a session (the session cookie).',
      body: VerifyOtpInput,
      responses: { 200: text('userType/userId (SPEC section 7).', SESSION_TEXT_EXAMPLE) },
      errors: [401, 429],
    },
    async (ctx) => {
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
    },
  );

  route(router, { method: 'get', path: '/me', summary: 'The signed-in user.', responses: { 200: json('The user.', MeBody) } }, (ctx) => {
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

  route(
    router,
    { method: 'post', path: '/logout', open: true, summary: 'Ends the session.', responses: { 204: { description: 'Signed out.' } } },
    async (ctx) => {
      if (ctx.state.sessionToken) await endSession(deps.db, ctx.state.sessionToken);
      ctx.cookies.set(SESSION_COOKIE, null);
      ctx.status = 204;
    },
  );
}
