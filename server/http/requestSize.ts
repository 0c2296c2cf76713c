// Limits on the request head, answered rather than reset: an address over MAX_URL_BYTES gets a 414
// and headers over MAX_HEADER_BYTES a 431, each with a JSON `{ "message" }`.
//
// Two layers give the same answers. Node's parser accepts heads up to PARSER_MAX_HEADER_SIZE, so a head
// a little over a limit reaches the app, where refuseOversizedHeads() answers it as any other call (the
// connection stays open). A head past what the parser accepts never becomes a request: Node reports it
// as a 'clientError', answered here on the socket. Node's own answer is a 431 with no body whatever
// was too long, and it destroys the socket while the client is still sending, so the client sees the
// connection reset instead; here the answer is written, the socket half-closed and what the client
// still sends read and dropped until it closes (or CLOSE_AFTER_MS passes). Which limit a head past the
// parser broke is read from the chunk the parser was reading when it gave up.
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Middleware } from 'koa';
import { AppError } from '../errors.js';

/** The request target (path and query) as sent, in bytes. */
export const MAX_URL_BYTES = 16 * 1024;
/** Every header line, names, values and line ends, in bytes. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** What Node's parser accepts in all before it gives up: both limits and some room. */
export const PARSER_MAX_HEADER_SIZE = MAX_URL_BYTES + MAX_HEADER_BYTES + 8 * 1024;
/** How long a refused connection may keep sending before it is cut. */
const CLOSE_AFTER_MS = 10_000;

export const URL_TOO_LONG = `The address is too long: at most ${MAX_URL_BYTES / 1024} KiB of path and query are accepted.`;
export const HEADERS_TOO_LARGE = `The request headers are too large: at most ${MAX_HEADER_BYTES / 1024} KiB in all are accepted.`;
const UNREADABLE = 'The request could not be read.';

/** The size of a request's header lines as sent: `Name: value\r\n` each. */
function headerBytes(rawHeaders: string[]): number {
  let bytes = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) bytes += Buffer.byteLength(rawHeaders[i]) + Buffer.byteLength(rawHeaders[i + 1] ?? '') + 4;
  return bytes;
}

/** First in the chain after the error handler: a too long address is a 414, too large headers a 431. */
export function refuseOversizedHeads(): Middleware {
  return async (ctx, next) => {
    if (Buffer.byteLength(ctx.req.url ?? '') > MAX_URL_BYTES) throw new AppError('uri_too_long', URL_TOO_LONG);
    if (headerBytes(ctx.req.rawHeaders) > MAX_HEADER_BYTES) throw new AppError('headers_too_large', HEADERS_TOO_LARGE);
    await next();
  };
}

function rawAnswer(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ message });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Whether the head the parser gave up on overflowed in its request line: the chunk it was reading
 * (err.rawPacket) starts a request and has no line end, or has no line end at all while one line
 * alone is past what the parser takes. Read from the error, so no connection's bytes pass through
 * JavaScript on their way to the parser (a 'data' listener would turn Node's native reading off).
 */
function overflowedInRequestLine(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): boolean {
  const packet = err.rawPacket;
  if (!packet || packet.length === 0) return false;
  const lineEnd = packet.indexOf(0x0a);
  if (/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return lineEnd === -1 || lineEnd > MAX_URL_BYTES;
  return lineEnd === -1 && packet.length > MAX_URL_BYTES;
}

function answerFor(err: NodeJS.ErrnoException): string {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // As in refuseOversizedHeads, the address is judged first: a request line over its limit is a 414.
    return overflowedInRequestLine(err) ? rawAnswer(414, 'URI Too Long', URL_TOO_LONG) : rawAnswer(431, 'Request Header Fields Too Large', HEADERS_TOO_LARGE);
  }
  if (err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return rawAnswer(413, 'Payload Too Large', 'The chunk extensions of the body are too large.');
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawAnswer(408, 'Request Timeout', 'The request took too long to arrive.');
  return rawAnswer(400, 'Bad Request', UNREADABLE);
}

/** The HTTP server of `handler` (the Koa app's callback) with the limits above. */
export function createLimitedServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const answered = new WeakSet<Socket>();
  const server = http.createServer({ maxHeaderSize: PARSER_MAX_HEADER_SIZE }, handler);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports every further chunk of a refused head again: it was answered once.
    if (answered.has(socket)) return;
    answered.add(socket);
    // A response already on its way (a pipelined call): nothing can be added to it cleanly.
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(answerFor(err));
    // Keep reading (and dropping) what the client still sends, so it reads the answer instead of a reset.
    socket.resume();
    const cut = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
    socket.once('close', () => clearTimeout(cut));
  });
  return server;
}
