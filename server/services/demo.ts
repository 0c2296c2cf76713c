// Demo accounts for `labctl serve --demo`: one per portal role, created only on an empty database.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { Role } from '../domain/roles.js';
import { inTransaction } from '../db/transaction.js';
import { createClientAccount } from './clients.js';
import { hashPassword } from './secrets.js';
import { createUser } from './users.js';

export const DEMO_PASSWORD = 'demo-password';

export interface DemoAccount {
  role: Role;
  email: string;
  password: string;
}

const STAFF_ROLES: Array<{ role: Role; first: string; last: string }> = [
  { role: 'staff', first: 'Rosa', last: 'Reyes' },
  { role: 'chemtester', first: 'Carlo', last: 'Cruz' },
  { role: 'microbiotester', first: 'Maya', last: 'Santos' },
  { role: 'molbiotester', first: 'Miguel', last: 'Bautista' },
];

export const demoEmail = (role: Role) => `${role}@demo.lab`;

/** Creates the demo accounts when no user exists yet; returns what it created (nothing otherwise). */
export async function seedDemoAccounts(db: Knex, clock: Clock): Promise<DemoAccount[]> {
  return inTransaction(db, async (trx) => {
    const existing = await trx('users').count<{ n: number | string }[]>({ n: '*' });
    if (Number(existing[0].n) > 0) return [];
    // One password for every demo account: hashed once (a full-strength hash each was a sixth of a second).
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await createClientAccount(
      trx,
      clock,
      {
        username: 'democlient',
        firstName: 'Dana',
        middleName: 'L',
        lastName: 'Delos Santos',
        contactNumber: '639171234567',
        email: demoEmail('client'),
        password: DEMO_PASSWORD,
        passwordHash,
        verified: true,
      },
      { companyName: 'Demo Meat Traders Inc.', ltoNo: 'LTO-2026-001', classification: 'Importer' },
    );
    for (const s of STAFF_ROLES) {
      await createUser(trx, clock, {
        username: s.role === 'staff' ? 'demostaff' : `demo${s.role}`,
        firstName: s.first,
        lastName: s.last,
        email: demoEmail(s.role),
        password: DEMO_PASSWORD,
        passwordHash,
        role: s.role,
        verified: true,
      });
    }
    return (['client', ...STAFF_ROLES.map((s) => s.role)] as Role[]).map((role) => ({ role, email: demoEmail(role), password: DEMO_PASSWORD }));
  });
}
