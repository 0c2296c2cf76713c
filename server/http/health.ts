import Router from '@koa/router';
import type { AppDeps, AppState } from './context.js';

export function healthRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/healthz', async (ctx) => {
    try {
      await deps.db.raw('select 1');
      ctx.body = { status: 'ok', database: 'ok' };
    } catch (err) {
      deps.logger.error({ err }, 'health check: database unreachable');
      ctx.status = 503;
      ctx.body = { status: 'unavailable', database: 'unreachable', message: 'The database is not reachable.' };
    }
  });
  return router;
}
