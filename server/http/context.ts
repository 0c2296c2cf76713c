// What every router gets: the app's dependencies, and the typed Koa state.
import type { Router, RouterContext } from '@koa/router';
import type { ChangeKind, ReadCache } from '../services/readCache.js';
import type { User } from '../services/users.js';

export type { AppDeps } from '../appDeps.js';

export interface AppState {
  user?: User;
  sessionToken?: string;
  /** The read cache for this call, its database version read once (ReadCache.pinned). */
  reads?: ReadCache;
  /** What the answer computed depends on, when its route narrows what cachedRead was told (pageKinds). */
  cacheKinds?: readonly ChangeKind[];
}

export type AppContext = RouterContext<AppState>;
export type AppRouter = Router<AppState>;
