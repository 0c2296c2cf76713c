// Account administration (`labctl user ...`): staff, tester and admin accounts are only made here
// (DESIGN.md section 7). Same services as the API; every change goes to the audit log.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { inTransaction } from '../../db/transaction.js';
import type { Role } from '../../domain/roles.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit.js';
import { createClientAccount, type ClientCompany } from '../clients.js';
import { createUser, findUserByIdentifier, type DeletionStatus, type User } from '../users.js';
import { setDeletionStatus, setPassword } from './updates.js';

interface AccountBase {
  email: string;
  password: string;
  username: string | null;
  firstName: string;
  lastName: string;
}

export type NewAccount =
  | (AccountBase & { role: Exclude<Role, 'client'> })
  | (AccountBase & { role: 'client'; contactNumber: string; company: ClientCompany });

/** Creates a verified, active account (an admin vouches for the address). */
export async function addAccount(db: Knex, clock: Clock, account: NewAccount): Promise<User> {
  return inTransaction(db, async (trx) => {
    const user =
      account.role === 'client'
        ? await createClientAccount(trx, clock, { ...account, verified: true }, account.company)
        : await createUser(trx, clock, { ...account, verified: true });
    await recordAudit(trx, clock, { actorUserId: null, action: 'user.add', details: { email: user.email, role: user.role } });
    return user;
  });
}

export interface AccountSummary {
  id: number;
  role: Role;
  email: string;
  username: string | null;
  name: string;
  status: DeletionStatus;
  verified: boolean;
  companyName: string | null;
  createdAt: string;
}

export async function listAccounts(db: Knex): Promise<AccountSummary[]> {
  const rows = await db('users as u')
    .leftJoin('clients as c', 'c.user_id', 'u.id')
    .orderBy('u.id')
    .select('u.id', 'u.role', 'u.email', 'u.username', 'u.first_name', 'u.last_name', 'u.deletion_status', 'u.email_verified_at', 'u.created_at', 'c.company_name');
  return rows.map((r) => ({
    id: Number(r.id),
    role: r.role,
    email: r.email,
    username: r.username,
    name: `${r.first_name} ${r.last_name}`.trim(),
    status: r.deletion_status,
    verified: r.email_verified_at !== null,
    companyName: r.company_name ?? null,
    createdAt: r.created_at,
  }));
}

async function existing(db: Knex, identifier: string): Promise<User> {
  const user = await findUserByIdentifier(db, identifier);
  if (!user) throw notFound(`There is no account with the e-mail or username "${identifier}".`);
  return user;
}

/** Disables the account and ends its sessions; it can no longer log in or reset its password. */
export async function disableAccount(db: Knex, clock: Clock, identifier: string): Promise<User> {
  const user = await existing(db, identifier);
  await inTransaction(db, async (trx) => {
    await setDeletionStatus(trx, clock, user.id, 'DISABLED');
    await recordAudit(trx, clock, { actorUserId: null, action: 'user.disable', details: { email: user.email } });
  });
  return { ...user, deletionStatus: 'DISABLED' };
}

/** Sets a random password, ends the account's sessions and returns the password (to be shown once). */
export async function resetToRandomPassword(db: Knex, clock: Clock, identifier: string): Promise<{ user: User; password: string }> {
  return resetToPassword(db, clock, identifier, crypto.randomBytes(12).toString('base64url'));
}

/** Sets the password an administrator chose (checked by the caller against PasswordField). */
export async function resetToPassword(db: Knex, clock: Clock, identifier: string, password: string): Promise<{ user: User; password: string }> {
  const user = await existing(db, identifier);
  await setPassword(db, clock, user.id, password);
  await recordAudit(db, clock, { actorUserId: null, action: 'user.reset-password', details: { email: user.email } });
  return { user, password };
}
