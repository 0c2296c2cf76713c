// Checks the obvious implementation (obviousServer.mjs) and writesBesideObvious by hand, after
// `npm run build`: `node scripts/bench/obvious.check.mjs [sqlite,postgres]`. Per engine, on a fresh
// data set (`labctl seed --demo --volume 2000`): the calls' answers and rows one by one, then ours
// beside the obvious under load (every acknowledged write stored, approval numbers gap-free).
// Exits 1 when a check fails. Not part of `npm test`: it starts servers and loads them for seconds.
import assert from 'node:assert/strict';
import path from 'node:path';
import { execa } from 'execa';
import { freshDataDir, openTarget } from './engines.mjs';
import { startProcess, stop } from './load.mjs';
import { startObvious, writesBesideObvious } from './obvious.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { createDb } = await import(path.join(root, 'dist/server/db/knex.js'));
const { systemClock } = await import(path.join(root, 'dist/server/clock.js'));
const { createSession } = await import(path.join(root, 'dist/server/services/sessions.js'));
const { buildSubmitPayload } = await import(path.join(root, 'dist/server/domain/requestPayload.js'));
const { refreshProgress } = await import(path.join(root, 'dist/server/db/requestProgress.js'));

const engines = (process.argv[2] ?? 'sqlite,postgres').split(',');
const log = (text) => process.stderr.write(`${text}\n`);

async function call(base, method, route, cookie, body) {
  const res = await fetch(base + route, { method, headers: { cookie: cookie ?? '', 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const form = {
  representativeName: 'democlient', contactNumber: '639171234567', emailAddress: 'someone@else.example', companyName: 'Not the profile',
  clientClassification: 'Importer', ltoNumber: 'LTO-2026-001', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in',
  lotBatchNo: 'LOT-CHECK', sampleSource: 'Cold storage', productionDate: '', expiryDate: '', samplingDate: '', samplerName: 'Check',
  samples: ['Beef loin', 'Pork belly'], tests: ['eColi', 'salmonellaSp'], gramPositiveAst: '', gramNegativeAst: '',
};

/** One request through submission, approval and results on the obvious server, row by row. */
async function lifeOfOneRequest(base, db, cookies, clientId) {
  const count = async (table, where) => Number((await db(table).where(where).count({ n: '*' }).first()).n);
  assert.equal((await call(base, 'POST', `/requests/submitrequest/${clientId}`, undefined, {})).status, 401);
  assert.equal((await call(base, 'POST', `/requests/submitrequest/${clientId}`, 'lab_session=nonsense', {})).status, 401);
  assert.equal((await call(base, 'POST', `/requests/submitrequest/${clientId}`, cookies.staff, buildSubmitPayload(form, new Date()))).status, 403);
  assert.equal((await call(base, 'POST', `/requests/submitrequest/${clientId}`, cookies.client, { sample: [] })).status, 400);

  const submitted = await call(base, 'POST', `/requests/submitrequest/${clientId}`, cookies.client, buildSubmitPayload(form, new Date()));
  assert.equal(submitted.status, 201);
  const id = submitted.body.requestId;
  const request = await db('requests').where({ id }).first();
  assert.equal(request.status, 'PENDING_REVIEW');
  assert.equal(request.email_address, 'client@demo.lab', 'the contact comes from the profile');
  assert.notEqual(request.company_name, 'Not the profile');
  assert.equal(await count('request_tests', { request_id: id }), 2);
  assert.equal(await count('samples', { request_id: id }), 2);
  assert.equal(await count('audit_log', { request_id: id, action: 'request.submit' }), 1);
  assert.equal(await count('outbox', { request_id: id }), 1);

  assert.equal((await call(base, 'PUT', `/requests/approve/${id}`, cookies.client, {})).status, 403);
  assert.equal((await call(base, 'PUT', '/requests/approve/999999999', cookies.staff, {})).status, 404);
  const approved = await call(base, 'PUT', `/requests/approve/${id}`, cookies.staff, {});
  assert.equal(approved.status, 200);
  assert.match(approved.body.controlNumber, /^\d{4}-\d{4,}$/);
  assert.equal((await call(base, 'PUT', `/requests/approve/${id}`, cookies.staff, {})).status, 409);
  const after = await db('requests').where({ id }).first();
  assert.equal(after.status, 'FOR_TESTING');
  assert.equal(after.control_number, approved.body.controlNumber);
  const analyses = await db('analyses').where({ request_id: id }).orderBy('id');
  assert.equal(analyses.length, 4, 'one analysis per sample and test');
  assert.deepEqual([...new Set(analyses.map((a) => `${a.family}/${a.result_group}`))], ['microbio/microbio']);
  assert.equal(await count('audit_log', { request_id: id, action: 'request.approve' }), 1);
  assert.equal(await count('outbox', { request_id: id }), 2);

  // Salmonella entered directly; the E. coli saves decide the status.
  await db('analyses').where({ request_id: id, test_code: 'salmonellaSp' }).update({ value: 'Not detected', remark: 'negative' });
  const [first, second] = analyses.filter((a) => a.test_code === 'eColi').map((a) => a.sample_id);
  assert.equal((await call(base, 'PUT', `/microbioTestResults/${first}`, cookies.staff, { eColi: '<10' })).status, 403);
  assert.equal((await call(base, 'PUT', `/microbioTestResults/${first}`, cookies.tester, { eColi: 5 })).status, 400);
  assert.equal((await call(base, 'PUT', `/microbioTestResults/${first}`, cookies.tester, { eColi: '<10', eColiRemarks: 'negative' })).status, 200);
  assert.equal((await db('requests').where({ id }).first()).status, 'FOR_TESTING', 'one E. coli result is still missing');
  assert.equal((await call(base, 'PUT', `/microbioTestResults/${second}`, cookies.tester, { eColi: '<10', eColiRemarks: 'negative' })).status, 200);
  assert.equal((await db('requests').where({ id }).first()).status, 'FOR_RELEASE');
  const saved = await db('analyses').where({ sample_id: second, test_code: 'eColi' }).first();
  assert.equal(saved.value, '<10');
  assert.equal(Number(saved.entered_by), (await db('users').where({ email: 'microbiotester@demo.lab' }).first()).id);
  assert.equal((await call(base, 'PUT', `/microbioTestResults/${second}`, cookies.tester, { eColi: '' })).status, 200);
  assert.equal((await db('requests').where({ id }).first()).status, 'FOR_TESTING', 'emptying a result reopens the request');
  assert.equal(await count('audit_log', { request_id: id, action: 'results.write' }), 3);
  await db('requests').where({ id }).update({ status: 'RELEASED' });
  assert.equal((await call(base, 'PUT', `/microbioTestResults/${second}`, cookies.tester, { eColi: '<10' })).status, 409);
  // The obvious server keeps no queue progress rows; ours would have (checked after the load).
  await db.transaction((trx) => refreshProgress(trx, [id]));
}

async function checkEngine(engine) {
  const target = await openTarget(engine);
  const servers = [];
  let obvious;
  const db = createDb(target.settings);
  try {
    log(`${engine}: labctl seed --demo --volume 2000`);
    await execa('node', [path.join(root, 'bin/labctl'), 'seed', '--demo', '--volume', '2000'], { env: { ...process.env, ...target.env }, cwd: root });
    const policy = { idleMinutes: 60, maxHours: 8 };
    const userOf = (email) => db('users').where({ email }).first('id');
    const cookieOf = async (email) => `lab_session=${(await createSession(db, systemClock, policy, (await userOf(email)).id)).token}`;
    const cookies = { client: await cookieOf('client@demo.lab'), staff: await cookieOf('staff@demo.lab'), tester: await cookieOf('microbiotester@demo.lab') };
    const clientId = (await userOf('client@demo.lab')).id;

    log(`${engine}: one request through the obvious implementation`);
    obvious = await startObvious({ settings: target.settings, instances: target.instances, root });
    for (const base of obvious.bases) await lifeOfOneRequest(base, db, cookies, clientId);
    await obvious.stop();
    obvious = undefined;

    log(`${engine}: ours beside the obvious under load (${target.instances} instance(s) each)`);
    for (let i = 0; i < target.instances; i += 1) {
      const env = { ...process.env, ...target.env, DATA_DIR: i === 0 ? target.dataDir : freshDataDir() };
      servers.push(startProcess('node', [path.join(root, 'bin/labctl'), 'serve', '--port', '0', '--host', '127.0.0.1'], { cwd: root, env }));
    }
    const ours = (await Promise.all(servers.map((s) => s.listening))).map((l) => l.url);
    const rows = await writesBesideObvious({ settings: target.settings, instances: target.instances, root, ours, db, cookies, clientId });
    console.log(`\n## ${engine}\n`);
    for (const r of rows) console.log(`| ${r.name} | ${r.baseline} | ${r.ours} | ${r.ratio} | ${r.goal} | ${r.pass ? 'pass' : 'FAIL'} |`);
    const withoutProgress = await db('requests as r')
      .leftJoin('request_progress as p', function () {
        this.on('p.request_id', 'r.id').andOnVal('p.scope', 'all');
      })
      .whereNull('p.request_id')
      .count({ n: '*' })
      .first();
    assert.equal(Number(withoutProgress.n), 0, 'requests without their progress row');
    // Stored and gap-free are checks; the speed beside ours is what the bench reports.
    for (const r of rows) {
      assert.doesNotMatch(r.name, /WITH GAPS/);
      const [, ackOurs, storedOurs, ackObvious, storedObvious] = r.name.match(/ours (\d+) acknowledged, (\d+) stored; obvious (\d+) acknowledged, (\d+) stored/).map(Number);
      assert.ok(ackOurs > 0 && ackObvious > 0, `${r.name}: no calls measured`);
      assert.ok(storedOurs >= ackOurs && storedObvious >= ackObvious, `${r.name}: acknowledged writes missing`);
    }
    return rows;
  } finally {
    await obvious?.stop();
    await Promise.all(servers.map((s) => stop(s.child)));
    await db.destroy();
    await target.drop();
  }
}

for (const engine of engines) await checkEngine(engine);
