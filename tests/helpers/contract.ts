// The contract check of the API suite: every answer HttpClient receives from a call of the OpenAPI
// document (server/http/openapi.ts) must be one the document describes for that call: its status is
// listed, its media type is one of that status's, a JSON body validates against its schema (ajv,
// JSON Schema 2020-12 as OpenAPI 3.1 uses) and a status without content has no body. A request that
// matches no documented call (the portal's pages, "No such call" 404s, a 405 for an unknown method)
// is not an API call and is not checked. The document is built once per worker, in-process, from
// the same routers the app mounts; each schema is compiled on first use and kept.
//
// Not checked, as they do not go through HttpClient: tests/api/security/requestSize.test.ts (raw
// sockets: heads past what Node's parser accepts, answered on the socket) and
// tests/api/security/contentEncoding.test.ts (fetch with a Content-Encoding body, which HttpClient
// does not send); both assert the `{ "message" }` answers they get themselves.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { apiRouters } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import type { AppDeps } from '../../server/http/context.js';
import { openApiDocument } from '../../server/http/openapi.js';

interface MediaType {
  schema?: unknown;
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
interface DocumentedCall {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments: where two templates match a path, the one with more literal segments is the call. */
  literals: number;
  operation: Operation;
}

const DOCUMENT_ID = 'openapi.json';

let loaded: { calls: DocumentedCall[]; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

/** The document of the app's routers; the routers only keep their dependencies for the calls, so none is needed here. */
export function apiDocument() {
  return openApiDocument(apiRouters({ config: loadConfig({}) } as AppDeps), { title: 'Contract', version: '1' });
}

function load() {
  if (loaded) return loaded;
  const document = apiDocument();
  const calls: DocumentedCall[] = [];
  for (const [template, methods] of Object.entries(document.paths ?? {})) {
    const segments = template.split('/');
    const pattern = new RegExp(`^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
    for (const [method, operation] of Object.entries(methods as Record<string, Operation>)) {
      calls.push({ method: method.toUpperCase(), template, pattern, literals: segments.filter((s) => !s.startsWith('{')).length, operation });
    }
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  loaded = { calls, ajv, validators: new Map() };
  return loaded;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Why the answer breaks the contract of the call it answers, or undefined when it keeps it (or answers no documented call). */
export function contractBreach(method: string, url: string, status: number, contentType: string | null, text: string): string | undefined {
  const { calls, ajv, validators } = load();
  const path = url.split(/[?#]/)[0];
  const call = calls.filter((c) => c.method === method.toUpperCase() && c.pattern.test(path)).sort((a, b) => b.literals - a.literals)[0];
  if (!call) return undefined;
  const name = `${call.method} ${call.template}`;
  const response = call.operation.responses[String(status)];
  if (!response) return `${name} answered ${status}, a status the document does not list for it (${Object.keys(call.operation.responses).join(', ')}): ${text.slice(0, 200)}`;
  if (!response.content) return text === '' ? undefined : `${name} answered ${status} with a body, which the document says has none.`;
  const type = (contentType ?? '').split(';')[0].trim();
  if (!response.content[type]) return `${name} answered ${status} as ${type || 'no media type'}, not as ${Object.keys(response.content).join(' or ')}.`;
  if (type !== 'application/json') return undefined;
  const key = `${call.template} ${call.method} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer('paths', call.template, call.method.toLowerCase(), 'responses', String(status), 'content', type, 'schema')}` });
    validators.set(key, validate);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${name} answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (validate(body)) return undefined;
  return `${name} answered ${status} with a body its schema refuses: ${ajv.errorsText(validate.errors, { separator: '; ' })}. Body: ${text.slice(0, 500)}`;
}
