import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';
import { sessionRoutes } from './session.js';

export function accountsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  sessionRoutes(router, deps);
  return router;
}
