import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { Role } from '../../../server/domain/roles.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

type Call = [method: 'GET' | 'PUT' | 'POST', path: (ids: Ids) => string, body?: unknown];
interface Ids {
  pending: number;
  forRelease: number;
}

/** Calls only the desk (staff and admins) may make. */
const DESK_ONLY: Call[] = [
  ['GET', () => '/requests/pending'],
  ['GET', (r) => `/requests/pendingrequest/${r.pending}`],
  ['PUT', (r) => `/requests/approve/${r.pending}`],
  ['PUT', (r) => `/requests/reject/${r.pending}`],
  ['PUT', (r) => `/requests/approveRelease/${r.forRelease}`, { password: 'correct horse battery' }],
  ['POST', (r) => `/createresult/${r.forRelease}`, {}],
  ['GET', (r) => `/requests/ctrlnumber/${r.forRelease}`],
  ['GET', () => '/requests/last-approved'],
];

/** Calls testers may also make (for their own discipline). */
const DESK_AND_TESTERS: Call[] = [
  ['GET', () => '/requests/for-release'],
  ['GET', () => '/requests/released'],
];

const OUTSIDERS: Role[] = ['client', 'chemtester', 'microbiotester', 'molbiotester'];
const TESTERS: Role[] = ['chemtester', 'microbiotester', 'molbiotester'];

describe(`desk permissions (${databaseKind()})`, () => {
  let app: TestApp;
  let ids: Ids;
  const clients = new Map<Role | 'anonymous', HttpClient>();

  beforeAll(async () => {
    app = await startTestApp();
    const owner = await app.createUser('client');
    const [pending, forRelease] = await insertRequests(app.db, [
      { clientUserId: owner.id, tests: ['eColi', 'dog'] },
      { clientUserId: owner.id, tests: ['eColi', 'betaLactams'], status: 'FOR_RELEASE' },
    ]);
    ids = { pending: pending.requestId, forRelease: forRelease.requestId };
    for (const role of [...OUTSIDERS, 'staff', 'admin'] as Role[]) clients.set(role, (await app.signedIn(role)).http);
    clients.set('anonymous', app.anonymous());
  });
  afterAll(() => app?.close());

  const send = (who: Role | 'anonymous', [method, path, body]: Call) => clients.get(who)!.request(method, path(ids), body);

  describe.each(OUTSIDERS)('%s', (role) => {
    it.each(DESK_ONLY.map((c) => [`${c[0]} ${c[1]({ pending: 0, forRelease: 0 })}`, c] as const))('is refused %s', async (_name, call) => {
      const res = await send(role, call);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'You do not have permission to do this.' });
    });
  });

  it.each([...DESK_ONLY, ...DESK_AND_TESTERS].map((c) => [`${c[0]} ${c[1]({ pending: 0, forRelease: 0 })}`, c] as const))(
    'anonymous is asked to log in for %s',
    async (_name, call) => {
      expect((await send('anonymous', call)).status).toBe(401);
    },
  );

  it('refuses the lists awaiting release and released to clients', async () => {
    for (const call of DESK_AND_TESTERS) expect((await send('client', call)).status).toBe(403);
  });

  it('nothing was changed by the refused calls', async () => {
    const rows = await app.db('requests').whereIn('id', [ids.pending, ids.forRelease]).orderBy('id').pluck('status');
    expect(rows).toEqual(['PENDING_REVIEW', 'FOR_RELEASE']);
  });

  it.each(TESTERS)('%s reads the lists of its own discipline', async (role) => {
    const res = await send(role, DESK_AND_TESTERS[0]);
    expect(res.status).toBe(200);
    const expected = role === 'molbiotester' ? [] : [ids.forRelease];
    expect(res.body.map((r: { requestId: number }) => r.requestId)).toEqual(expected);
    expect((await send(role, DESK_AND_TESTERS[1])).status).toBe(200);
  });

  it('admins work the desk like staff', async () => {
    expect((await send('admin', DESK_ONLY[0])).status).toBe(200);
    expect((await send('admin', ['PUT', (r) => `/requests/approve/${r.pending}`])).status).toBe(200);
  });
});
