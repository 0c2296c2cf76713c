// What every router gets: the app's dependencies, and the typed Koa state.
import type { Router, RouterContext } from '@koa/router';
import type { Config } from '../config.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/knex.js';
import type { Logger } from '../logger.js';
import type { OutboxWorker } from '../mail/outboxWorker.js';
import type { ReadCache } from '../services/readCache.js';
import type { User } from '../services/users.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The outbox worker of this process; when given, a code a call e-mailed is sent before it answers (accounts/router.ts). */
  outbox?: Pick<OutboxWorker, 'sendQueuedBy'>;
  /** Sessions and marked lists answered from memory while the data is unchanged (services/readCache.ts). */
  reads?: ReadCache;
}

export interface AppState {
  user?: User;
  sessionToken?: string;
  /** The read cache for this call, its database version read once (ReadCache.pinned). */
  reads?: ReadCache;
}

export type AppContext = RouterContext<AppState>;
export type AppRouter = Router<AppState>;
