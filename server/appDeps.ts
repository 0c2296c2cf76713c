// What the app is built from (createApp's dependencies, handed on to every router). It sits beside
// app.ts rather than in http/ because it names the database, which http/ never imports (DESIGN §3).
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { Db } from './db/knex.js';
import type { Logger } from './logger.js';
import type { OutboxWorker } from './mail/outboxWorker.js';
import type { ReadCache } from './services/readCache.js';

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
