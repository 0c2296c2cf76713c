import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';
import { codeRoutes } from './codes.js';
import { passwordResetRoutes } from './passwordReset.js';
import { registrationRoutes } from './registration.js';
import { sessionRoutes } from './session.js';

export function accountsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  sessionRoutes(router, deps);
  registrationRoutes(router, deps);
  passwordResetRoutes(router, deps);
  codeRoutes(router, deps);
  return router;
}
