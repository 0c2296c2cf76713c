// Client accounts: a user with the client role plus the company record.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { drawnId } from '../db/sql.js';
import { inTransaction } from '../db/transaction.js';
import { canonicalLto } from '../domain/accountRules.js';
import type { ClientProfile, CompanyAddressInput } from '../domain/clientProfile.js';
import { can, type Actor } from '../domain/policies.js';
import { forbidden, notFound } from '../errors.js';
import { recordAudit } from './audit.js';
import type { AuditMeta } from './requests/transitions.js';
import { createUser, type NewUser, type User } from './users.js';

export interface ClientCompany {
  companyName: string;
  ltoNo: string;
  classification: string;
  address?: string | null;
}

export async function createClientAccount(
  db: Knex | Knex.Transaction,
  clock: Clock,
  user: Omit<NewUser, 'role'>,
  company: ClientCompany,
): Promise<User> {
  return inTransaction(db, async (trx) => {
    const created = await createUser(trx, clock, { ...user, role: 'client' });
    await trx('clients').insert({
      user_id: created.id,
      company_name: company.companyName.trim(),
      lto_no: canonicalLto(company.ltoNo).trim(),
      classification: company.classification.trim(),
      address: company.address?.trim() || null,
    });
    return created;
  });
}

/** The profile of SPEC section 3 ("client view"), or undefined for a user that is not a client. */
export async function findClientProfile(db: Knex | Knex.Transaction, userId: number): Promise<ClientProfile | undefined> {
  return (await findClientProfileDrawingId(db, userId))?.profile;
}

/**
 * The profile (findClientProfile) and, where the database draws ids from a sequence (drawnId), a new
 * id of `table` drawn by the same statement: a submission's one read before its one write.
 */
export async function findClientProfileDrawingId(
  db: Knex | Knex.Transaction,
  userId: number,
  table?: string,
): Promise<{ profile: ClientProfile; drawnId?: number } | undefined> {
  const draw = table === undefined ? undefined : drawnId(db, table);
  const row = await db('users as u')
    .join('clients as c', 'c.user_id', 'u.id')
    .where('u.id', userId)
    .first('u.username', 'u.contact_number', 'u.email', 'c.company_name', 'c.lto_no', 'c.classification', 'c.address', ...(draw ? [draw] : []));
  if (!row) return undefined;
  const profile: ClientProfile = {
    username: row.username,
    contactNumber: row.contact_number,
    email: row.email,
    companyName: row.company_name,
    ltoNumber: row.lto_no,
    classification: row.classification,
    address: row.address ?? null,
  };
  return { profile, ...(draw ? { drawnId: Number(row.drawn_id) } : {}) };
}

/**
 * A client sets its own company address (the desk reads it, does not change it): 403 for anyone
 * else, whether or not `userId` exists. Audited with the address before and after.
 */
export async function updateCompanyAddress(
  deps: { db: Knex; clock: Clock },
  actor: Actor,
  userId: number,
  input: CompanyAddressInput,
  meta: AuditMeta = {},
): Promise<ClientProfile> {
  if (!can(actor, 'profile:update', { clientUserId: userId })) throw forbidden();
  await inTransaction(deps.db, async (trx) => {
    const before = await trx('clients').where('user_id', userId).first('address');
    if (!before) throw notFound('There is no client with this id.');
    await trx('clients').where('user_id', userId).update({ address: input.address });
    await recordAudit(trx, deps.clock, {
      actorUserId: actor.id,
      action: 'profile.address',
      requestId: null,
      details: { before: { address: before.address ?? null }, after: { address: input.address } },
      ip: meta.ip,
    });
  });
  return (await findClientProfile(deps.db, userId))!;
}
