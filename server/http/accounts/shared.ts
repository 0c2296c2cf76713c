import type { Attempt } from '../../services/rateLimits.js';
import type { AppContext } from '../context.js';

/** The rate-limit subject of a call: the caller's address and the account it is about. */
export const attemptOf = (ctx: AppContext, identifier?: string): Attempt => ({ ip: ctx.ip, identifier });
