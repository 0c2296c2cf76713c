// A GET answer kept while the data is unchanged (services/readCache.ts): the work queues and lists
// every screen polls. The answer is stored as sent, JSON already compressed for the encoding the
// caller accepts, so a repeated call costs neither SQL nor compression. Keyed by who may read it and
// the whole URL: a client's answers per client (ownership decides what a client reads), everyone
// else's per role (the policy table decides by role alone, so every user of a role gets the same
// answer for the same URL and one entry serves them all).
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Middleware, ParameterizedContext } from 'koa';
import { BEST_BROTLI_OPTIONS, cachedBrotliOptions, COMPRESS_FROM_BYTES } from '../compression.js';
import type { AppDeps, AppState } from '../context.js';
import { ANY_DATA, stampOf, type ChangeKind } from '../../services/readCache.js';
import type { User } from '../../services/users.js';
import { DAY_MS } from '../../domain/dates.js';

type Encoding = 'br' | 'gzip' | 'identity';

interface Answer {
  body: Buffer;
  encoding: Encoding;
  headers: [string, string][];
  /** The JSON's size, before compression. */
  jsonBytes: number;
  /** Times sent since it was stored, until it is compressed at the best quality (recompressWhenHot). */
  sends: number;
  best?: true;
}

// The headers the cached routes set beside the body (paging).
const KEPT_HEADERS = ['Link', 'X-Total-Count'];

const brotli = promisify(zlib.brotliCompress);
const unbrotli = promisify(zlib.brotliDecompress);
const gzip = promisify(zlib.gzip);

async function encoded(json: Buffer, accepted: Encoding): Promise<{ body: Buffer; encoding: Encoding }> {
  if (json.length < COMPRESS_FROM_BYTES || accepted === 'identity') return { body: json, encoding: 'identity' };
  if (accepted === 'br') return { body: await brotli(json, cachedBrotliOptions(json.length)), encoding: 'br' };
  return { body: await gzip(json), encoding: 'gzip' };
}

// Compressing at the best quality costs 2.4-3.2 µs of CPU a byte of JSON (a for-testing page: 113-150
// ms); each send of that page, 850 bytes smaller, then saves the machine about 50 µs (compression.ts),
// and one of the pending page (19 KB of JSON, 353 bytes smaller) about 20. So it is done once an
// answer has been sent a tenth as many times as it has bytes of JSON: by then the bytes it would have
// saved are worth about what compressing costs (the rent-or-buy rule, which bounds the loss should
// the answer go stale right after). A page that screens poll is, under load; an answer read a few
// times between two writes never is.
const SENDS_PER_JSON_BYTE = 0.1;
// Whole lists (megabytes of JSON) would take seconds of CPU.
const BEST_UP_TO_JSON_BYTES = 256 * 1024;

/**
 * Counts a send of `answer` and, once it has been sent often enough, compresses it again at the best
 * quality, in the background (zlib's threads). The stored answer then sends the smaller body, the
 * same JSON; one already on its way keeps the body it took.
 */
function recompressWhenHot(answer: Answer): void {
  answer.sends += 1;
  if (answer.best || answer.encoding !== 'br' || answer.sends < answer.jsonBytes * SENDS_PER_JSON_BYTE || answer.jsonBytes > BEST_UP_TO_JSON_BYTES) return;
  answer.best = true;
  void unbrotli(answer.body)
    .then((json) => brotli(json, BEST_BROTLI_OPTIONS))
    .then((body) => {
      if (body.length < answer.body.length) answer.body = body;
    })
    // The answer as it was stays good: nothing to report.
    .catch(() => undefined);
}

/** As koa-compress chooses: brotli before gzip whatever the caller's order, nothing without the header. */
function encodingFor(header: string, accepts: (encoding: string) => boolean): Encoding {
  if (!header) return 'identity';
  return (['br', 'gzip'] as const).find(accepts) ?? 'identity';
}

// Browsers send a handful of Accept-Encoding values; parsing one costs more than the rest of a cached
// answer's lookup. Bounded, as the values come from callers.
const ENCODINGS_KEPT = 64;
const encodingOfHeader = new Map<string, Encoding>();

function acceptedEncoding(ctx: ParameterizedContext<AppState>): Encoding {
  const header = ctx.get('Accept-Encoding');
  let encoding = encodingOfHeader.get(header);
  if (encoding === undefined) {
    encoding = encodingFor(header, (e) => ctx.acceptsEncodings(e) === e);
    if (encodingOfHeader.size >= ENCODINGS_KEPT) encodingOfHeader.clear();
    encodingOfHeader.set(header, encoding);
  }
  return encoding;
}

/** The answer the handler left on `ctx`, ready to keep; undefined when it is not a 200 JSON answer. */
async function answerOf(ctx: ParameterizedContext<AppState>, accepted: Encoding): Promise<Answer | undefined> {
  const body: unknown = ctx.body;
  if (ctx.status !== 200 || body === null || typeof body !== 'object' || Buffer.isBuffer(body) || 'pipe' in body) return undefined;
  const json = Buffer.from(JSON.stringify(body));
  const headers = KEPT_HEADERS.flatMap((name): [string, string][] => (ctx.response.get(name) ? [[name, ctx.response.get(name)]] : []));
  return { ...(await encoded(json, accepted)), headers, jsonBytes: json.length, sends: 0 };
}

/** Who shares a user's answers: a client no one, anyone else every user of its role. */
const readerOf = (user: User) => (user.role === 'client' ? `user:${user.id}` : `role:${user.role}`);

/** What a GET call of a signed-in user is cached under; undefined for any other call. */
function lookupOf(ctx: ParameterizedContext<AppState>, clock: AppDeps['clock']): { key: string; accepted: Encoding } | undefined {
  const user = ctx.state.user;
  if (!user || ctx.method !== 'GET') return undefined;
  const accepted = acceptedEncoding(ctx);
  // The day (UTC) is part of the key: a default such as the report's year follows the clock.
  return { key: `answer:${readerOf(user)}:${accepted}:${Math.floor(clock.now().getTime() / DAY_MS)}:${ctx.url}`, accepted };
}

// Vary: Accept-Encoding is on every answer already: koa-compress, mounted before these, sets it.
function send(ctx: ParameterizedContext<AppState>, answer: Answer): void {
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  for (const [name, value] of answer.headers) ctx.set(name, value);
  if (answer.encoding !== 'identity') ctx.set('Content-Encoding', answer.encoding);
  ctx.body = answer.body;
  recompressWhenHot(answer);
}

/**
 * Answers a GET from the cache before routing, when this user's same call was answered at the
 * current version (app-level, after the session). The answer was computed through the route and its
 * checks for this user, and nothing was committed since, so what allowed it still holds; what does
 * not hit goes on to the route, whose cachedRead computes and stores it. Routing a cached call
 * through every router cost a sixth of its time.
 */
export function answerFromCache({ reads: shared, clock }: Pick<AppDeps, 'reads' | 'clock'>): Middleware<AppState> {
  if (!shared) return (_ctx, next) => next();
  return async (ctx, next) => {
    const lookup = lookupOf(ctx, clock);
    const cache = ctx.state.reads ?? shared;
    const answer = lookup && cache.get<Answer>(lookup.key, await cache.versions());
    if (answer) send(ctx, answer);
    else await next();
  };
}

/**
 * Caches the 200 JSON answers of the routes it is put on, while nothing of `kinds` changes (by
 * default any data; a list of requests in some statuses names them, see requestsIn); a no-op
 * without a cache.
 */
export function cachedRead(
  { reads: shared, clock }: Pick<AppDeps, 'reads' | 'clock'>,
  kinds: readonly ChangeKind[] | ((params: Record<string, string>) => readonly ChangeKind[]) = ANY_DATA,
): Middleware<AppState> {
  if (!shared) return (_ctx, next) => next();
  // Answers being computed, by version and key. A caller that read the same version may wait for one:
  // nothing was committed between the two reads of the counter, and the computation began after the
  // first. So fifty callers of a slow list compute it once, not fifty times at once.
  const computing = new Map<string, Promise<Answer | undefined>>();
  return async (ctx, next) => {
    const lookup = lookupOf(ctx, clock);
    if (!lookup) return next();
    const { key, accepted } = lookup;
    const cache = ctx.state.reads ?? shared;
    const versions = await cache.versions();
    const dependsOn = typeof kinds === 'function' ? kinds((ctx as { params?: Record<string, string> }).params ?? {}) : kinds;
    const slot = `${stampOf(versions, dependsOn)}:${key}`;
    let answer = cache.get<Answer>(key, versions);
    // No await unless another call computes it: a turn given up here would let the next caller
    // miss this one's computation and start its own.
    const underway = answer ? undefined : computing.get(slot);
    if (underway) answer = await underway.catch(() => undefined);
    if (!answer) {
      const mine = next().then(() => answerOf(ctx, accepted));
      if (!computing.has(slot)) computing.set(slot, mine);
      try {
        answer = await mine;
      } finally {
        if (computing.get(slot) === mine) computing.delete(slot);
      }
      // Not a 200 JSON answer: the handler's own response stands.
      if (!answer) return;
      cache.set(key, ctx.state.cacheKinds ?? dependsOn, versions, answer, answer.body.length + key.length);
    }
    send(ctx, answer);
  };
}
