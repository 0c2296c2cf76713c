import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';
import { codeRoutes } from './codes.js';
import { passwordResetRoutes } from './passwordReset.js';
import { registrationRoutes } from './registration.js';
import { sessionRoutes } from './session.js';

export function accountsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  // A call that e-mails a code answers once the mail has left (every method: GET /check-user sends a
  // reset code), so "we sent you a code" is true when the user reads it. Other calls' mail (the
  // desk's approvals, rejections, releases) waits in the outbox for the worker, which sends it right
  // after the commit: those calls do not hold their answer, and the desk's pace, on the mail server.
  const { outbox } = deps;
  if (outbox) router.use((_ctx, next) => outbox.sendQueuedBy(next));
  sessionRoutes(router, deps);
  registrationRoutes(router, deps);
  passwordResetRoutes(router, deps);
  codeRoutes(router, deps);
  return router;
}
