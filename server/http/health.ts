// Probes for a process supervisor and a load balancer: /healthz says the process answers (no
// database call, so a database outage does not get every instance restarted); /readyz says it can
// serve calls (database reachable, migrations current) and answers 503 with the reason otherwise.
import Router from '@koa/router';
import { z } from 'zod';
import { checkReadiness } from '../services/readiness.js';
import type { AppDeps, AppState } from './context.js';
import { json, route } from './route.js';

const Status = (status: string) => z.object({ status: z.literal(status) }).meta({ example: { status } });
const Unavailable = z.object({ status: z.literal('unavailable'), message: z.string() }).meta({ example: { status: 'unavailable', message: 'The database is not reachable.' } });

export function healthRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  route(
    router,
    { method: 'get', path: '/healthz', open: true, summary: 'The process is alive (no database call).', responses: { 200: json('Alive.', Status('ok')) } },
    (ctx) => {
      ctx.body = { status: 'ok' };
    },
  );
  route(
    router,
    {
      method: 'get',
      path: '/readyz',
      open: true,
      summary: 'The instance can serve: database reachable, migrations current; 503 with the reason otherwise.',
      responses: { 200: json('Ready.', Status('ready')), 503: json('Not ready, with the reason.', Unavailable) },
    },
    async (ctx) => {
      const readiness = await checkReadiness(deps.db);
      if (readiness.ready) {
        ctx.body = { status: 'ready' };
        return;
      }
      deps.logger.warn({ reason: readiness.reason }, 'not ready');
      ctx.status = 503;
      ctx.body = { status: 'unavailable', message: readiness.reason };
    },
  );
  return router;
}
