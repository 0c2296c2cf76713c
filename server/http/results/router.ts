import Router from '@koa/router';
import type { AppDeps, AppState } from '../context.js';

export function resultsRouter(_deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  return router;
}
