// Probes for a process supervisor and a load balancer: /healthz says the process answers (no
// database call, so a database outage does not get every instance restarted); /readyz says it can
// serve calls (database reachable, migrations current) and answers 503 with the reason otherwise.
import Router from '@koa/router';
import { checkReadiness } from '../services/readiness.js';
import type { AppDeps, AppState } from './context.js';

export function healthRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const readiness = await checkReadiness(deps.db);
    if (readiness.ready) {
      ctx.body = { status: 'ready' };
      return;
    }
    deps.logger.warn({ reason: readiness.reason }, 'not ready');
    ctx.status = 503;
    ctx.body = { status: 'unavailable', message: readiness.reason };
  });
  return router;
}
