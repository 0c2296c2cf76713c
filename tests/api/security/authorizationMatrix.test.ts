// The authorization matrix, generated from one table: every mounted route (read from the routers,
// so a new route fails this test until it has a row) x every kind of caller, with the answer class
// expected. Calls use client A's ids and an empty body: what is checked is who gets past the
// authorization, not what the call then does with the input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { fillPath, mountedRoutes, type Route } from '../../helpers/routes.js';

const CALLERS = ['anonymous', 'clientA', 'clientB', 'staff', 'chemtester', 'microbiotester', 'molbiotester', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

/**
 * One letter per caller, in the order of CALLERS. P: passes authorization (any answer but 401, 403
 * and 5xx); D: denied (403); L: asked to log in (401).
 */
const MATRIX: Record<string, string> = {
  'GET /healthz': 'PPPPPPPP',
  'POST /login': 'PPPPPPPP',
  'POST /verify-otp': 'PPPPPPPP',
  'GET /me': 'LPPPPPPP',
  'POST /logout': 'PPPPPPPP',
  'POST /clients': 'PPPPPPPP',
  'POST /clientverify': 'PPPPPPPP',
  'PUT /clientview/:userId/address': 'LPDDDDDD',
  'GET /clientview/:userId': 'LPDPDDDP',
  'GET /check-user': 'PPPPPPPP',
  'POST /verify-otp-password': 'PPPPPPPP',
  'POST /change-password': 'PPPPPPPP',
  'POST /resend-code': 'PPPPPPPP',
  'POST /requests/submitrequest/:userId': 'LPDDDDDD',
  'GET /requests/clientrequest/:userId': 'LPDPDDDP',
  'GET /request/:requestId': 'LPDPDDDP',
  'GET /requests/detail/:requestId': 'LPDPDDDP',
  'GET /requests/pending': 'LDDPDDDP',
  'GET /requests/pendingrequest/:requestId': 'LDDPDDDP',
  'PUT /requests/approve/:requestId': 'LDDPDDDP',
  'PUT /requests/reject/:requestId': 'LDDPDDDP',
  'PUT /requests/approveRelease/:requestId': 'LDDPDDDP',
  'POST /createresult/:requestId': 'LDDPDDDP',
  'GET /requests/ctrlnumber/:requestId': 'LDDPDDDP',
  'GET /requests/last-approved': 'LDDPDDDP',
  // Testers read these lists too (their Test Results pages), narrowed to their own result groups.
  'GET /requests/for-release': 'LDDPPPPP',
  'GET /requests/released': 'LDDPPPPP',
  'GET /requests/messages/:requestId': 'LPDPDDDP',
  'POST /requests/messages/:requestId': 'LPDPDDDP',
  'GET /requests/for-testing': 'LDDPPPPP',
  'GET /getResult': 'LDDPPPPP',
  'GET /getResult/:requestId': 'LDDPPPPP',
  'GET /microbioTestResults': 'LDDPDPDP',
  'PUT /microbioTestResults/:sampleId': 'LDDDDPDD',
  'GET /chemMicrobialTestResults': 'LDDPPDDP',
  'PUT /chemMicrobialTestResults/:sampleId': 'LDDDPDDD',
  'GET /chemElisaTestResults': 'LDDPPDDP',
  'PUT /chemTestElisaResults/:sampleId': 'LDDDPDDD',
  'GET /molBioTestResults': 'LDDPDDPP',
  'PUT /molBioTestResults/:sampleId': 'LDDDDDPD',
  'GET /api/reports/:report': 'LDDPDPDP',
  'GET /api/reports/years': 'LDDPPPPP',
  // Operations (issue 16): readiness and the API reference are public.
  'GET /readyz': 'PPPPPPPP',
  'GET /openapi.json': 'PPPPPPPP',
  'GET /api-docs': 'PPPPPPPP',
  // Work queues (issue 12): the desk's queues, and a client's own track list; a tester's whole Save.
  'GET /requests/queue/:name': 'LDDPDDDP',
  'GET /requests/queue/client/:userId': 'LPDPDDDP',
  'GET /requests/queue/client/:userId/counts': 'LPDPDDDP',
  'PUT /results/request/:requestId': 'LDDDPPPD',
  // The For Testing page's download (issue 27): whoever reads a For Testing list; the discipline is checked next.
  'GET /results/template': 'LDDPPPPP',
  // Certificates (issue 14): the owning client and the desk read them (an unreleased one is a 409); the desk amends; verification is public.
  'GET /requests/:requestId/certificate.pdf': 'LPDPDDDP',
  'GET /requests/:requestId/reports': 'LPDPDDDP',
  // Amendment marks (issue 25): the certificate's readers, and the testers of the request's disciplines
  // (their own tests' marks only); testers never get the certificate or its list of reports.
  'GET /requests/:requestId/amendments': 'LPDPPPPP',
  'POST /requests/:requestId/amendments': 'LDDPDDDP',
  'POST /certificates/:reportNumber/withdraw': 'LDDPDDDP',
  'GET /verify/:token': 'PPPPPPPP',
  // Traceability (issue 15): the desk receives, prints labels, reads the audit trail and the turnaround;
  // the owning client reads its receipt and timeline too.
  'POST /requests/receive/:requestId': 'LDDPDDDP',
  'GET /requests/receipt/:requestId': 'LPDPDDDP',
  'GET /requests/labels/:requestId': 'LDDPDDDP',
  'GET /requests/timeline/:requestId': 'LPDPDDDP',
  'GET /requests/turnaround': 'LDDPDDDP',
  'GET /requests/turnaround/weeks': 'LDDPDDDP',
  'GET /audit': 'LDDPDDDP',
  // Specifications (issue 26): the desk and the testers read them, the desk sets them; a request's
  // specifications for whoever reads its results; re-evaluation is an amendment (the desk).
  'GET /api/specifications': 'LDDPPPPP',
  'POST /api/specifications': 'LDDPDDDP',
  'GET /api/specifications/:id/history': 'LDDPPPPP',
  'GET /api/settings/decision-rule': 'LDDPPPPP',
  'PUT /api/settings/decision-rule': 'LDDPDDDP',
  'GET /api/requests/:requestId/specifications': 'LPDPPPPP',
  'POST /api/requests/:requestId/re-evaluate': 'LDDPDDDP',
  'GET /api/reports/nonconformities': 'LDDPPPPP',
};

const classOf = (status: number) => (status === 401 ? 'L' : status === 403 ? 'D' : status >= 500 ? '5' : 'P');

describe(`authorization matrix (${databaseKind()})`, () => {
  let app: TestApp;
  let routes: Route[];
  const http = {} as Record<Caller, HttpClient>;
  let values: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    routes = mountedRoutes(app.deps);
    http.anonymous = app.anonymous();
    const clientA = await app.signedIn('client');
    http.clientA = clientA.http;
    http.clientB = (await app.signedIn('client')).http;
    for (const role of ['staff', 'chemtester', 'microbiotester', 'molbiotester', 'admin'] as const) http[role] = (await app.signedIn(role)).http;
    const [request] = await insertRequests(app.db, [{ clientUserId: clientA.user.id, tests: ['eColi', 'betaLactams', 'chloramphenicol', 'dog'], status: 'FOR_TESTING' }]);
    values = { userId: String(clientA.user.id), requestId: String(request.requestId), sampleId: String(request.sampleIds[0]), report: 'microbioreport', name: 'pending', token: 'no-such-token', reportNumber: '2026-9999-R1', id: '1' };
  });
  afterAll(() => app?.close());

  it('has one row for every mounted route, and no row for a route that is gone', () => {
    expect(routes.map((r) => r.key).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it('answers every route x caller as the table says', async () => {
    const pathOf = (route: Route) => fillPath(route, values) + (route.key === 'GET /getResult' ? `?ids=${values.requestId}` : '');
    // Logging out ends the caller's session, so it goes last.
    const ordered = [...routes.filter((r) => r.key !== 'POST /logout'), ...routes.filter((r) => r.key === 'POST /logout')];
    const answers = await Promise.all(
      CALLERS.map(async (caller) => {
        let row = '';
        for (const route of ordered) {
          const res = await http[caller].request(route.method, pathOf(route), route.method === 'GET' ? undefined : {});
          row += classOf(res.status);
        }
        return row;
      }),
    );
    const actual = Object.fromEntries(ordered.map((route, i) => [route.key, CALLERS.map((_, c) => answers[c][i]).join('')]));
    expect(actual).toEqual(MATRIX);
  });
});
