// Structured logs (pino). Secrets never reach a log: known secret fields are redacted, and request
// URLs are logged with secret query parameters masked (SPEC puts passwords and codes in queries).
import pino from 'pino';

export type Logger = pino.Logger;

export const SECRET_KEYS = ['password', 'newPassword', 'otp', 'code', 'token'];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`)], censor: '[redacted]' },
    },
    destination,
  );
}

/** The URL with the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) {
    if (SECRET_KEYS.some((s) => s.toLowerCase() === key.toLowerCase())) params.set(key, '[redacted]');
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}
