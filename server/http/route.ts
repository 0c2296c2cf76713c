// One declaration per call: `route(router, { method, path, summary, open, params, query, body,
// responses, errors }, ...handlers)` registers the call on the router and records the same
// declaration for the OpenAPI document (openapi.ts), so the document cannot name a path, a schema or
// a guard the router does not have. Recording costs nothing per request: the declarations are read
// once, when the document is built.
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { AppRouter, AppState } from './context.js';
import { signedInOnly } from './guards.js';

/** A success answer: its media type (none: no body), the schema of a JSON body and an example. */
export interface Reply {
  description: string;
  type?: 'application/json' | 'text/plain' | 'text/csv' | 'application/pdf' | 'text/html';
  schema?: z.ZodType;
  example?: unknown;
  /** Response headers it sets (X-Total-Count, Link, Content-Disposition). */
  headers?: readonly ReplyHeader[];
}

export type ReplyHeader = 'X-Total-Count' | 'Link' | 'Content-Disposition';

/** The `{ "message" }` statuses a call may answer besides those every call may (openapi.ts, errorsOf). */
export type ErrorStatus = 401 | 403 | 404 | 409 | 429 | 503;

export interface RouteDoc {
  method: 'get' | 'post' | 'put';
  /** As @koa/router reads it: `/requests/approve/:requestId`. */
  path: string;
  summary: string;
  /** Anyone may call it; every other call is refused with a 401 before anything else (signedInOnly). */
  open?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A status answered in several media types (JSON or `format=csv`) lists a Reply per type. */
  responses: Partial<Record<200 | 201 | 204 | 503, Reply | readonly Reply[]>>;
  errors?: readonly ErrorStatus[];
}

const declared = new WeakMap<AppRouter, RouteDoc[]>();

/** Registers `doc`'s call on `router` (behind signedInOnly unless open) and records its declaration. */
export function route(router: AppRouter, doc: RouteDoc, ...handlers: RouterMiddleware<AppState>[]): void {
  const chain = doc.open ? handlers : [signedInOnly, ...handlers];
  router[doc.method](doc.path, ...(chain as [RouterMiddleware<AppState>]));
  const docs = declared.get(router) ?? [];
  docs.push(doc);
  declared.set(router, docs);
}

/** The declarations of the calls registered on `router` with route(). */
export function routeDocs(router: AppRouter): readonly RouteDoc[] {
  return declared.get(router) ?? [];
}

/** The error body of every refusal (errors middleware). */
export const ErrorBody = z
  .object({ message: z.string() })
  .meta({ id: 'Error', description: 'Why the call was refused.', example: { message: 'requestId: must be a positive whole number' } });

/** A confirmation that only carries a sentence for the user. */
export const MessageBody = z
  .object({ message: z.string() })
  .meta({ id: 'Message', description: 'What happened, for the user.', example: { message: 'A login code has been sent to your e-mail address.' } });

export const json = (description: string, schema: z.ZodType, more: Partial<Reply> = {}): Reply => ({ description, type: 'application/json', schema, ...more });
export const text = (description: string, example: string): Reply => ({ description, type: 'text/plain', schema: z.string(), example });
export const csv = (description: string): Reply => ({
  description,
  type: 'text/csv',
  schema: z.string(),
  example: 'requestId,controlNumber\r\n1,2026-0001\r\n',
  headers: ['Content-Disposition'],
});
export const pdf = (description: string): Reply => ({ description, type: 'application/pdf', headers: ['Content-Disposition'] });
