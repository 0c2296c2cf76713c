// Accounts as the rest of the server sees them. Creation hashes the password; lookups are by id,
// e-mail (lower-cased) or username (case-insensitive).
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { conflict } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { insertReturningId } from '../db/sql.js';
import type { Role } from '../domain/roles.js';
import { hashPassword } from './secrets.js';

export type DeletionStatus = 'ACTIVE' | 'DISABLED' | 'DELETED';

export interface User {
  id: number;
  username: string | null;
  firstName: string;
  middleName: string | null;
  lastName: string;
  contactNumber: string;
  email: string;
  role: Role;
  deletionStatus: DeletionStatus;
  emailVerifiedAt: string | null;
  createdAt: string;
}

export interface UserRow {
  id: number;
  username: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  contact_number: string;
  email: string;
  role: string;
  deletion_status: string;
  email_verified_at: string | null;
  created_at: string;
  password_hash: string;
}

export const USER_COLUMNS = [
  'id', 'username', 'first_name', 'middle_name', 'last_name', 'contact_number', 'email', 'role',
  'deletion_status', 'email_verified_at', 'created_at',
];

export function toUser(row: Omit<UserRow, 'password_hash'>): User {
  return {
    id: Number(row.id),
    username: row.username,
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    contactNumber: row.contact_number,
    email: row.email,
    role: row.role as Role,
    deletionStatus: row.deletion_status as DeletionStatus,
    emailVerifiedAt: row.email_verified_at,
    createdAt: row.created_at,
  };
}

export interface NewUser {
  username?: string | null;
  firstName: string;
  middleName?: string | null;
  lastName: string;
  contactNumber?: string;
  email: string;
  password: string;
  /**
   * hashPassword(password), made once by a caller that creates many accounts with one password (the
   * demo accounts, test fixtures), instead of a full-strength hash per account.
   */
  passwordHash?: string;
  role: Role;
  /** Staff accounts made by an admin are verified at once; self-registered clients are not. */
  verified: boolean;
}

export async function createUser(trx: Knex | Knex.Transaction, clock: Clock, input: NewUser): Promise<User> {
  const now = clock.now().toISOString();
  const username = input.username?.trim() || null;
  const row = {
    username,
    username_lower: username?.toLowerCase() ?? null,
    first_name: input.firstName.trim(),
    middle_name: input.middleName?.trim() || null,
    last_name: input.lastName.trim(),
    contact_number: input.contactNumber ?? '',
    email: input.email.trim().toLowerCase(),
    password_hash: input.passwordHash ?? (await hashPassword(input.password)),
    role: input.role,
    deletion_status: 'ACTIVE',
    email_verified_at: input.verified ? now : null,
    created_at: now,
    updated_at: now,
  };
  try {
    // In a savepoint: on PostgreSQL a failed statement aborts the enclosing transaction, and the
    // lookup below must still run in it to say which value is taken.
    const id = await trx.transaction((sp) => insertReturningId(sp, 'users', row));
    return toUser({ ...row, id });
  } catch (err) {
    if (isUniqueViolation(err)) {
      const emailTaken = await trx('users').where({ email: row.email }).first('id');
      throw conflict(emailTaken ? 'An account with this e-mail already exists.' : 'This username is already taken.');
    }
    throw err;
  }
}

export async function findUserById(db: Knex | Knex.Transaction, id: number): Promise<User | undefined> {
  const row = await db('users').where({ id }).first(USER_COLUMNS);
  return row ? toUser(row) : undefined;
}

/** Finds by e-mail or username, case-insensitively; returns the password hash for login checks. */
export async function findUserByIdentifier(
  db: Knex | Knex.Transaction,
  identifier: string,
): Promise<(User & { passwordHash: string }) | undefined> {
  const key = identifier.trim().toLowerCase();
  if (!key) return undefined;
  const row = await db('users')
    .where({ email: key })
    .orWhere({ username_lower: key })
    .first([...USER_COLUMNS, 'password_hash']);
  return row ? { ...toUser(row), passwordHash: row.password_hash } : undefined;
}
