import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { pdfText } from '../../helpers/pdfText.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`sample labels (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;

  beforeAll(async () => {
    app = await startTestApp();
    staff = (await app.signedIn('staff')).http;
  });
  afterAll(() => app?.close());
  afterEach(() => vi.useRealTimers());

  it('prints the same bytes for the same request, whenever it is printed', async () => {
    const client = await app.createUser('client');
    const [request] = await insertRequests(app.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'FOR_TESTING', samples: ['Beef loin', 'Pork belly', 'Chicken thigh'] }]);
    const first = await staff.get(`/requests/labels/${request.requestId}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(await pdfText(first.bytes)).toContain('Sample 3 of 3');

    // Reprints on later days: nothing in the file may depend on the time of printing, or on the
    // order in which its parts happen to be finished.
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let day = 1; day <= 5; day += 1) {
      vi.setSystemTime(Date.now() + 86_400_000);
      const reprint = await staff.get(`/requests/labels/${request.requestId}`);
      expect(reprint.bytes.equals(first.bytes), `reprint on day ${day}`).toBe(true);
    }
  });
});
