// One error type for everything a caller can fix or must be told; the error middleware turns it into
// `{ "message" }` with its status. Anything else is a bug: logged, answered with a generic 500.

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'uri_too_long'
  | 'too_many_requests'
  | 'headers_too_large'
  | 'unavailable';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  uri_too_long: 414,
  too_many_requests: 429,
  headers_too_large: 431,
  unavailable: 503,
};

export class AppError extends Error {
  readonly status: number;
  constructor(readonly code: ErrorCode, message: string, readonly details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.status = STATUS[code];
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError('bad_request', message, details);
export const unauthorized = (message = 'Please log in first.') => new AppError('unauthorized', message);
export const forbidden = (message = 'You do not have permission to do this.') => new AppError('forbidden', message);
export const notFound = (message = 'Not found.') => new AppError('not_found', message);
export const methodNotAllowed = () => new AppError('method_not_allowed', 'This call does not accept this HTTP method.');
export const conflict = (message: string) => new AppError('conflict', message);
export const tooManyRequests = (message = 'Too many attempts. Please wait a few minutes and try again.') =>
  new AppError('too_many_requests', message);
