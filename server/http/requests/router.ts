import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';
import { clientRoutes } from './client.js';
import { deskRoutes } from './desk.js';
import { queueRoutes } from './queue.js';
import { traceabilityRoutes } from './traceability.js';

export function requestsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  clientRoutes(router, deps);
  deskRoutes(router, deps);
  queueRoutes(router, deps);
  traceabilityRoutes(router, deps);
  return router;
}
