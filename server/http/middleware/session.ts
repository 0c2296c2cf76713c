import type { Middleware } from 'koa';
import type { AppDeps, AppState } from '../context.js';
import { resolveSession } from '../../services/sessions.js';

export const SESSION_COOKIE = 'lab_session';

export const sessionPolicy = (deps: AppDeps) => ({
  idleMinutes: deps.config.sessionIdleMinutes,
  maxHours: deps.config.sessionMaxHours,
});

/** Puts the signed-in user, if any, on ctx.state.user. */
export function loadSession(deps: AppDeps): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.reads = deps.reads?.pinned();
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (token) {
      const user = await resolveSession(deps.db, deps.clock, sessionPolicy(deps), token, ctx.state.reads);
      if (user) {
        ctx.state.user = user;
        ctx.state.sessionToken = token;
      } else {
        ctx.cookies.set(SESSION_COOKIE, null);
      }
    }
    await next();
  };
}
