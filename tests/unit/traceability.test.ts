import { describe, expect, it } from 'vitest';
import { actionMatches, auditCsv, AuditFilter, dayAfter, requestFilterOf, userFilterOf } from '../../server/domain/auditTrail.js';
import { describeReceipt, isTooWarm, ReceiptInput, receiptFlags } from '../../server/domain/reception.js';
import { buildTimeline, describeResult, type AuditRecord } from '../../server/domain/timeline.js';
import { disciplineOfFamily, FAMILIES } from '../../server/domain/catalog.js';
import { ageInDays, daysLate, disciplineLoads } from '../../server/domain/turnaround.js';

describe('reception rules', () => {
  it('flags a temperature above the 10 °C microbiology limit, not at it', () => {
    expect([null, undefined, -2, 10, 10.01, 25].map(isTooWarm)).toEqual([false, false, false, false, true, true]);
    expect(receiptFlags({ condition: 'acceptable', temperatureC: 4 })).toEqual({ temperatureFlagged: false, flagged: false });
    expect(receiptFlags({ condition: 'acceptable', temperatureC: 11 })).toEqual({ temperatureFlagged: true, flagged: true });
    expect(receiptFlags({ condition: 'not-acceptable', temperatureC: null })).toEqual({ temperatureFlagged: false, flagged: true });
  });

  it('needs a reason only when not acceptable', () => {
    const base = { receivedAt: '2026-03-01T09:30:00Z', containers: '3', condition: 'acceptable' };
    expect(ReceiptInput.parse(base)).toMatchObject({ containers: 3, condition: 'acceptable' });
    expect(ReceiptInput.safeParse({ ...base, condition: 'not-acceptable' }).success).toBe(false);
    expect(ReceiptInput.parse({ ...base, condition: 'not-acceptable', reason: ' Thawed ' }).reason).toBe('Thawed');
    expect(ReceiptInput.safeParse({ ...base, receivedAt: '2026-03-01 09:30' }).success).toBe(false);
    expect(ReceiptInput.safeParse({ ...base, containers: '1.5' }).success).toBe(false);
  });

  it('describes a receipt in one line', () => {
    expect(describeReceipt({ containers: 1, condition: 'acceptable', reason: null, temperatureC: null })).toBe('1 container, Acceptable');
    expect(describeReceipt({ containers: 3, condition: 'not-acceptable', reason: 'leaking', temperatureC: 12 })).toBe('3 containers, Not acceptable (leaking), 12 °C (above 10 °C)');
  });
});

describe('buildTimeline', () => {
  const record = (id: number, at: string, action: string, details: unknown = null, actor = 'Rosa Reyes', role = 'staff'): AuditRecord => ({
    id, at, actorUserId: 1, actorName: actor, actorRole: role, action, requestId: 5, controlNumber: '2026-0001', details, ip: null,
  });
  const audit = [
    record(4, '2026-03-02T00:00:00.000Z', 'results.write', {
      status: { before: 'FOR_TESTING', after: 'FOR_RELEASE' },
      results: [{ sampleId: 9, testCode: 'eColi', before: { value: null, remark: null, analysisDate: null }, after: { value: '<10', remark: 'negative', analysisDate: '2026-03-02' } }],
    }, 'Tess Tester', 'microbiotester'),
    record(1, '2026-03-01T00:00:00.000Z', 'request.submit', null, 'Carl Client', 'client'),
    record(3, '2026-03-01T01:00:00.000Z', 'request.ask-info', { messageId: 7 }),
    record(2, '2026-03-01T01:00:00.000Z', 'request.approve', { after: { status: 'FOR_TESTING', controlNumber: '2026-0001' } }),
    record(5, '2026-03-03T00:00:00.000Z', 'user.add'),
  ];

  it('orders by time then by entry, one event per result change, and completion after the results', () => {
    const events = buildTimeline(audit, [{ messageId: 7, body: 'Which lot?' }], [{ sampleId: 9, position: 2 }], 'desk');
    expect(events.map((e) => e.kind)).toEqual(['submitted', 'approved', 'question', 'result', 'completed']);
    expect(events[2].detail).toBe('Which lot?');
    expect(events[3]).toMatchObject({ actor: 'Tess Tester (microbiotester)', detail: 'E.Coli, sample 2', before: 'empty', after: "'<10', negative, analysed 2026-03-02" });
  });

  it('hides result entries from the client', () => {
    expect(buildTimeline(audit, [], [], 'client').map((e) => e.kind)).toEqual(['submitted', 'approved', 'question', 'completed']);
  });

  it('describes results', () => {
    expect(describeResult({ value: null, remark: null, analysisDate: null })).toBe('empty');
    expect(describeResult({ value: null, remark: 'positive', analysisDate: null })).toBe('no value, positive');
  });
});

describe('audit trail filters and CSV', () => {
  it('reads the request and user filters', () => {
    expect(requestFilterOf('2026-0012')).toEqual({ controlNumber: '2026-0012' });
    expect(requestFilterOf('12')).toEqual({ requestId: 12 });
    expect(userFilterOf('42')).toEqual({ userId: 42 });
    expect(userFilterOf('Rosa@Lab.Example')).toEqual({ name: 'rosa@lab.example' });
    expect(dayAfter('2026-12-31')).toBe('2027-01-01T00:00:00.000Z');
    expect(AuditFilter.safeParse({ since: '2026-02-29' }).success).toBe(false);
    expect(AuditFilter.safeParse({ since: '2026-03-02', until: '2026-03-01' }).success).toBe(false);
  });

  it('names an action, or a family of actions up to a dot', () => {
    expect(['request', 'request.approve', 'request.approve.x', 'requests.x', 'request-x', 'mail.sent'].filter((a) => actionMatches('request', a))).toEqual(['request', 'request.approve', 'request.approve.x']);
    expect(actionMatches('request.approve', 'request.approve')).toBe(true);
    expect(actionMatches('request.approve', 'request.approved')).toBe(false);
  });

  it('quotes CSV fields and neutralises spreadsheet formulas', () => {
    const csv = auditCsv([{ id: 1, at: 'T', actorUserId: 3, actorName: '=cmd()', actorRole: 'staff', action: 'a', requestId: null, controlNumber: null, details: { x: 'a,"b"' }, ip: null }]);
    expect(csv).toBe('id,at,actor,role,action,request_id,control_number,details,ip\r\n1,T,\'=cmd(),staff,a,,,"{""x"":""a,\\""b\\""""}",\r\n');
  });
});

describe('turnaround maths', () => {
  it('counts calendar days of age and lateness (the due day is not late)', () => {
    expect(ageInDays('2026-03-01T23:59:00.000Z', '2026-03-03')).toBe(2);
    expect(daysLate('2026-03-03', '2026-03-03')).toBe(0);
    expect(daysLate('2026-03-01', '2026-03-03')).toBe(2);
    expect(daysLate(null, '2026-03-03')).toBe(0);
  });

  it('lists every discipline in catalog order, with zeros for one without open requests', () => {
    expect(disciplineLoads([{ family: 'chem', open: 2, late: 1, oldest: 'x' }]).map((d) => [d.family, d.open])).toEqual([['microbio', 0], ['chem', 2], ['molBio', 0]]);
    expect(FAMILIES.map(disciplineOfFamily)).toEqual(['microbio', 'chem', 'molbio']);
  });
});
