// Hashing of passwords (scrypt with a per-user salt), of session tokens (SHA-256: long and random, so a
// fast hash suffices and lookups stay indexable) and of one-time codes (HMAC under the server secret:
// a million 6-digit codes are reversed at once from a plain hash).
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
export interface PasswordHashCost {
  N: number;
  r: number;
  p: number;
}
/** The cost of every password hash the product makes: about 50 ms of one core a hash or check. */
export const PASSWORD_HASH_COST: PasswordHashCost = { N: 16384, r: 8, p: 1 };
const KEYLEN = 32;

/**
 * A new hash of `password`. The cost is kept in the hash and a check follows it, so a hash made at
 * another `cost` (the test suites' users, made cheaper) still checks, and a later raise of the
 * product's cost leaves older hashes valid.
 */
export async function hashPassword(password: string, cost: PasswordHashCost = PASSWORD_HASH_COST): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return crypto.timingSafeEqual(actual, expected);
}

// One call, not a Hash object: a session token is hashed on every API call.
export const sha256 = (text: string) => crypto.hash('sha256', text, 'hex');

export const keyedHash = (key: string, text: string) => crypto.createHmac('sha256', key).update(text).digest('hex');

/** Compares two hashes in constant time. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** A 6-digit one-time code, uniformly drawn. */
export const randomCode = () => crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
