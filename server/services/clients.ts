// Client accounts: a user with the client role plus the company record.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { inTransaction } from '../db/transaction.js';
import type { ClientProfile } from '../domain/clientProfile.js';
import { createUser, type NewUser, type User } from './users.js';

export interface ClientCompany {
  companyName: string;
  ltoNo: string;
  classification: string;
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
      lto_no: company.ltoNo.trim().toUpperCase(),
      classification: company.classification.trim(),
    });
    return created;
  });
}

/** The profile of SPEC section 3 ("client view"), or undefined for a user that is not a client. */
export async function findClientProfile(db: Knex | Knex.Transaction, userId: number): Promise<ClientProfile | undefined> {
  const row = await db('users as u')
    .join('clients as c', 'c.user_id', 'u.id')
    .where('u.id', userId)
    .first('u.username', 'u.contact_number', 'u.email', 'c.company_name', 'c.lto_no', 'c.classification');
  if (!row) return undefined;
  return {
    username: row.username,
    contactNumber: row.contact_number,
    email: row.email,
    companyName: row.company_name,
    ltoNumber: row.lto_no,
    classification: row.classification,
  };
}
