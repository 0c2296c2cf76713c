// createApp builds the Koa application from its dependencies; it never listens and holds no globals,
// so tests start it on port 0 with their own database, mailer and clock.
import path from 'node:path';
import Koa from 'koa';
import helmet from 'koa-helmet';
import { bodyParser } from '@koa/bodyparser';
import type { AppDeps, AppRouter, AppState } from './http/context.js';
import { errorHandler } from './http/middleware/errors.js';
import { requestLog } from './http/middleware/requestLog.js';
import { refuseNulCharacters } from './http/middleware/nulCharacters.js';
import { sameOriginOnly } from './http/middleware/origin.js';
import { loadSession } from './http/middleware/session.js';
import { serveSpa } from './http/middleware/spa.js';
import { healthRouter } from './http/health.js';
import { accountsRouter } from './http/accounts/router.js';
import { requestsRouter } from './http/requests/router.js';
import { resultsRouter } from './http/results/router.js';
import { reportsRouter } from './http/reports/router.js';
import { methodNotAllowed } from './errors.js';
import { packageRoot } from './packageRoot.js';

export interface CreateAppOptions extends AppDeps {
  /** Folder of the built portal; defaults to dist/ui of this package. */
  uiDir?: string;
}

/** Every API router, in mounting order; tests enumerate their routes to cover each call. */
export function apiRouters(deps: AppDeps): AppRouter[] {
  return [healthRouter(deps), accountsRouter(deps), requestsRouter(deps), resultsRouter(deps), reportsRouter(deps)];
}

export function createApp(options: CreateAppOptions): Koa<AppState> {
  const { uiDir = path.join(packageRoot(), 'dist', 'ui'), ...deps } = options;
  const app = new Koa<AppState>();
  app.proxy = Boolean(deps.config.publicUrl?.startsWith('https://'));
  app.silent = true;

  app.use(requestLog(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      strictTransportSecurity: deps.config.publicUrl?.startsWith('https://') ? undefined : false,
    }),
  );
  app.use(sameOriginOnly(deps.config.publicUrl));
  app.use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb' }));
  app.use(refuseNulCharacters());
  app.use(loadSession(deps));

  for (const router of apiRouters(deps)) {
    app.use(router.routes());
    // A method no route knows (PROPFIND, ...) is the caller's mistake too: 405, not the router's 501.
    app.use(router.allowedMethods({ throw: true, methodNotAllowed, notImplemented: methodNotAllowed }));
  }

  app.use(serveSpa(uiDir, { labName: deps.config.labName, labShortName: deps.config.labShortName }));
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { message: `No such call: ${ctx.method} ${ctx.path}` };
  });
  return app;
}
