import type { Role } from '../../server/domain/roles.js';
import { getJson, postText, segment } from './http.js';

/** GET /me: the signed-in user of the server session. */
export interface Me {
  id: number;
  role: Role;
  username: string | null;
  email: string;
  firstName: string;
  lastName: string;
}

/** GET /me. Throws ApiError 401 when not signed in. */
export function getMe(signal?: AbortSignal): Promise<Me> {
  return getJson<Me>('/me', signal);
}

/** POST /logout: ends the server session. */
export async function logout(): Promise<void> {
  await postText('/logout');
}

/** POST /login {identifier, password}: ok means a login code was e-mailed. Throws ApiError otherwise. */
export async function login(identifier: string, password: string): Promise<void> {
  await postText('/login', { identifier, password });
}

/** POST /verify-otp {username, otp}: answers the text `userType/userId`, e.g. `client/12`. */
export async function verifyLoginCode(username: string, otp: string): Promise<string> {
  return (await postText('/verify-otp', { username, otp })).trim();
}

/** Path of the login code screen for an identifier (username or e-mail). */
export function tfaPath(identifier: string): string {
  return `/tfa/${segment(identifier)}`;
}

