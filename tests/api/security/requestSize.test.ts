// Request heads over the limits are answered, with a status and a JSON message, over a raw socket: a
// too long address gets a 414, too large headers a 431, whether the app or Node's parser catches them,
// and the connection closes after the answer instead of being reset.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS_TOO_LARGE, MAX_HEADER_BYTES, MAX_URL_BYTES, PARSER_MAX_HEADER_SIZE, URL_TOO_LONG } from '../../../server/http/requestSize.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the socket ended cleanly (no ECONNRESET or EPIPE). */
  clean: boolean;
  error?: string;
}

/** Writes `head` on a fresh connection, reads until the server closes it and parses the one answer. */
function exchange(url: string, head: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server half-closes after its answer: close our side too.
    socket.on('end', () => socket.end());
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, clean: !error, error });
    });
    socket.write(head);
  });
}

const get = (target: string, extraHeaders = '') => `GET ${target} HTTP/1.1\r\nHost: lab.test\r\n${extraHeaders}Connection: close\r\n\r\n`;

describe(`limits of the request head (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const expectJson = (answer: RawAnswer, status: number, message: string) => {
    expect(answer.error).toBeUndefined();
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ message });
  };

  it('answers a 20 KB query string with a 414 and a JSON message', async () => {
    const answer = await exchange(app.url, get(`/requests?q=${'a'.repeat(20_000)}`));
    expectJson(answer, 414, URL_TOO_LONG);
    expect(answer.clean).toBe(true);
  });

  it('answers an oversized header with a 431 and a JSON message', async () => {
    const answer = await exchange(app.url, get('/healthz', `X-Padding: ${'b'.repeat(MAX_HEADER_BYTES)}\r\n`));
    expectJson(answer, 431, HEADERS_TOO_LARGE);
  });

  it('answers the same when the head is past what the parser reads, and is not reset while the client still sends', async () => {
    for (const size of [PARSER_MAX_HEADER_SIZE + 1, 200_000, 2_000_000]) {
      expectJson(await exchange(app.url, get(`/requests?q=${'c'.repeat(size)}`)), 414, URL_TOO_LONG);
      expectJson(await exchange(app.url, get('/healthz', `X-Padding: ${'d'.repeat(size)}\r\n`)), 431, HEADERS_TOO_LARGE);
    }
    // Many headers, each small, that add up past the parser's limit: headers, not the address.
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'e'.repeat(120)}\r\n`).join('');
    expectJson(await exchange(app.url, get('/healthz', many)), 431, HEADERS_TOO_LARGE);
  });

  it('still reads what a refused client goes on sending after the answer, so it is not reset', async () => {
    const { hostname, port } = new URL(app.url);
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => socket.end());
    socket.write(`GET /requests?q=${'i'.repeat(PARSER_MAX_HEADER_SIZE + 1000)}`);
    await answered;
    // The rest of the address arrives after the answer: Node's own handling has destroyed the socket by now.
    await new Promise<void>((resolve, reject) => socket.write(`${'i'.repeat(100_000)} HTTP/1.1\r\nHost: lab.test\r\n\r\n`, (err) => (err ? reject(err) : resolve())));
    await closed;
    expect(error).toBeUndefined();
    expect(Buffer.concat(chunks).toString('utf8')).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/);
  });

  it('answers a head that is not HTTP with a 400 and a JSON message', async () => {
    expectJson(await exchange(app.url, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'The request could not be read.');
  });

  it('serves an address and headers just inside the limits', async () => {
    const target = '/healthz?pad=';
    const address = await exchange(app.url, get(`${target}${'f'.repeat(MAX_URL_BYTES - target.length)}`));
    expect(address.status).toBe(200);
    const fits = 'X-Padding: \r\n'.length + 'Host: lab.test\r\n'.length + 'Connection: close\r\n'.length;
    const headers = await exchange(app.url, get('/healthz', `X-Padding: ${'g'.repeat(MAX_HEADER_BYTES - fits)}\r\n`));
    expect(headers.status).toBe(200);
    // One byte more of either is refused.
    expect((await exchange(app.url, get(`${target}${'f'.repeat(MAX_URL_BYTES - target.length + 1)}`))).status).toBe(414);
    expect((await exchange(app.url, get('/healthz', `X-Padding: ${'g'.repeat(MAX_HEADER_BYTES - fits + 1)}\r\n`))).status).toBe(431);
  });

  it('keeps a connection open after the app refuses a too long address', async () => {
    const { hostname, port } = new URL(app.url);
    const socket = net.connect(Number(port), hostname);
    const received: string[] = [];
    const answered = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.join('').split('HTTP/1.1 ').length - 1 >= n) resolve();
          else socket.once('data', check);
        };
        check();
      });
    socket.on('data', (chunk: Buffer) => received.push(chunk.toString('utf8')));
    socket.write(`GET /healthz?q=${'h'.repeat(20_000)} HTTP/1.1\r\nHost: lab.test\r\n\r\n`);
    await answered(1);
    socket.write('GET /healthz HTTP/1.1\r\nHost: lab.test\r\nConnection: close\r\n\r\n');
    await answered(2);
    socket.destroy();
    const statuses = received.join('').match(/HTTP\/1\.1 \d{3}/g);
    expect(statuses).toEqual(['HTTP/1.1 414', 'HTTP/1.1 200']);
  });
});
