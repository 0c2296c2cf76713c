import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';
import { clientRoutes } from './client.js';
import { deskRoutes } from './desk.js';

export function requestsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  clientRoutes(router, deps);
  deskRoutes(router, deps);
  return router;
}
