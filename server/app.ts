// createApp builds the Koa application from its dependencies; it never listens and holds no globals,
// so tests start it on port 0 with their own database and clock. Mail goes through the outbox table;
// its worker (server/mail/outboxWorker.ts) runs beside the app.
import type { Server } from 'node:http';
import path from 'node:path';
import Koa from 'koa';
import compress from 'koa-compress';
import { BROTLI_OPTIONS, COMPRESS_FROM_BYTES } from './http/compression.js';
import type { AppDeps, AppRouter, AppState } from './http/context.js';
import { clientAddress, secureCookies } from './http/middleware/connection.js';
import { readBody } from './http/middleware/body.js';
import type { CallDrain } from './http/middleware/drain.js';
import { errorHandler } from './http/middleware/errors.js';
import { requestLog } from './http/middleware/requestLog.js';
import { refuseIllFormedText } from './http/middleware/wellFormedText.js';
import { createLimitedServer, refuseOversizedHeads } from './http/requestSize.js';
import { sameOriginOnly } from './http/middleware/origin.js';
import { securityHeaders } from './http/middleware/securityHeaders.js';
import { loadSession } from './http/middleware/session.js';
import { visibleWrites } from './http/middleware/visibleWrites.js';
import { answerFromCache } from './http/middleware/cachedRead.js';
import { serveSpa } from './http/middleware/spa.js';
import { healthRouter } from './http/health.js';
import { accountsRouter } from './http/accounts/router.js';
import { requestsRouter } from './http/requests/router.js';
import { resultsRouter } from './http/results/router.js';
import { reportsRouter } from './http/reports/router.js';
import { certificatesRouter } from './http/certificates/router.js';
import { auditRouter } from './http/audit/router.js';
import { specificationsRouter } from './http/specifications/router.js';
import { openApiRouter } from './http/openapi.js';
import { methodNotAllowed } from './errors.js';
import { packageRoot } from './packageRoot.js';

export interface CreateAppOptions extends AppDeps {
  /** Folder of the built portal; defaults to dist/ui of this package. */
  uiDir?: string;
  /** Counts the calls being handled, for a stop that waits for them (labctl serve). */
  drain?: CallDrain;
}

/** Every API router, in mounting order; tests enumerate their routes to cover each call. */
export function apiRouters(deps: AppDeps): AppRouter[] {
  const routers = [healthRouter(deps), accountsRouter(deps), requestsRouter(deps), resultsRouter(deps), reportsRouter(deps), certificatesRouter(deps), auditRouter(deps), specificationsRouter(deps)];
  return [...routers, openApiRouter(routers, { title: `${deps.config.labName} laboratory portal API`, serverUrl: deps.config.publicUrl })];
}

/**
 * Koa whose listen() serves through createLimitedServer, so every server of the app (labctl serve,
 * the tests, the bench) answers a too long address or too large headers with a 414 or 431 and a message.
 */
class LabApp extends Koa<AppState> {
  override listen(...args: unknown[]): Server {
    return createLimitedServer(this.callback()).listen(...(args as Parameters<Server['listen']>));
  }
}

export function createApp(options: CreateAppOptions): Koa<AppState> {
  const { uiDir = path.join(packageRoot(), 'dist', 'ui'), drain, ...deps } = options;
  const app = new LabApp();
  app.proxy = deps.config.trustProxy;
  // One trusted proxy: only the last X-Forwarded-For entry (the one it appended) names the client.
  app.maxIpsCount = 1;
  app.silent = true;

  if (drain) app.use(drain.middleware);
  app.use(clientAddress());
  app.use(secureCookies(deps.config));
  app.use(requestLog(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(visibleWrites(deps));
  app.use(
    securityHeaders({
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
  app.use(refuseOversizedHeads());
  // JSON, the page and assets without a prebuilt .br/.gz (serveSpa sends those as they are) go out
  // compressed when the client accepts it (settings in http/compression.ts).
  app.use(
    compress({
      threshold: COMPRESS_FROM_BYTES,
      br: BROTLI_OPTIONS,
      gzip: {},
      deflate: false,
    }),
  );
  app.use(sameOriginOnly(deps.config.publicUrl));
  app.use(readBody({ enableTypes: ['json', 'form'], jsonLimit: '1mb' }));
  app.use(refuseIllFormedText());
  app.use(loadSession(deps));
  app.use(answerFromCache(deps));

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
