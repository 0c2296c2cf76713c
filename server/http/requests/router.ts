import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';

export function requestsRouter(_deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  return router;
}
