// Checks that handlers call first: signed in, and allowed by the policy table.
import type { Next } from 'koa';
import { can, type Action, type Resource } from '../domain/policies.js';
import { forbidden, unauthorized } from '../errors.js';
import type { User } from '../services/users.js';
import type { AppContext } from './context.js';

export function requireUser(ctx: AppContext): User {
  const user = ctx.state.user;
  if (!user) throw unauthorized();
  return user;
}

/**
 * Route middleware for calls without a public use: an anonymous caller is asked to log in before
 * any of its input is validated, so it learns nothing from validation messages.
 */
export async function signedInOnly(ctx: AppContext, next: Next): Promise<void> {
  requireUser(ctx);
  await next();
}

export function authorize(ctx: AppContext, action: Action, resource: Resource = {}): User {
  const user = requireUser(ctx);
  if (!can(user, action, resource)) throw forbidden();
  return user;
}

/** Query parameters and JSON body together: the spec puts parameters in the query, our UI sends bodies. */
export function inputOf(ctx: AppContext): Record<string, unknown> {
  const body = ctx.request.body;
  return { ...ctx.query, ...(body && typeof body === 'object' && !Array.isArray(body) ? body : {}) };
}
