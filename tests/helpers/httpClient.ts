// A small HTTP client that keeps cookies like a browser, for API tests. Every answer it receives is
// checked against the OpenAPI document (contract.ts): one the document does not describe fails the test.
import { contractBreach } from './contract.js';

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The raw body (PDF downloads). */
  bytes: Buffer;
}

/**
 * fetch, sent again (up to `attempts` in all) when the connection was reset before any answer: a
 * kept-alive connection the server closed as it was reused (the keep-alive race a loaded machine
 * makes likely), which browsers retry too; on a throttled machine one retry was not always enough. A
 * server that resets the same call every time still fails the test.
 */
async function fetchRetryingReset(url: string, init: RequestInit, attempts = 3): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if ((code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') || attempts <= 1) throw error;
    return fetchRetryingReset(url, init, attempts - 1);
  }
}

export class HttpClient {
  private cookies = new Map<string, string>();
  constructor(readonly baseUrl: string, private readonly defaultHeaders: Record<string, string> = {}) {}

  /** A client with the same cookies (the same browser). */
  clone(): HttpClient {
    const copy = new HttpClient(this.baseUrl, this.defaultHeaders);
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> {
    const init: RequestInit = { method, headers: { ...this.defaultHeaders, ...headers }, redirect: 'manual' };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    if (this.cookies.size) {
      (init.headers as Record<string, string>).cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const res = await fetchRetryingReset(this.baseUrl + path, init);
    for (const setCookie of res.headers.getSetCookie()) {
      const [pair, ...attrs] = setCookie.split(';');
      const [name, ...rest] = pair.split('=');
      const value = rest.join('=');
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    const breach = contractBreach(method, path, res.status, res.headers.get('content-type'), text);
    if (breach) throw new Error(`Contract: ${breach}`);
    return { status: res.status, headers: res.headers, body: parsed as T, text, bytes };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }
}
