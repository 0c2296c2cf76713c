// The answers of the request calls, for the API reference (openapi.ts) and the suite's contract
// check: the wide request shape of SPEC section 3 and 7, the work list rows, the desk's transitions,
// messages, queues and traceability. They describe what the services return; nothing parses with them.
import { z } from 'zod';
import { FAMILIES, SPECIES_CODES } from '../../domain/catalog.js';
import { RECEIPT_CONDITIONS } from '../../domain/reception.js';
import { REQUEST_STATUSES } from '../../domain/requestStatus.js';
import { ConformityBody } from '../specifications/bodies.js';

const Status = z.enum(REQUEST_STATUSES);
const Timestamp = z.string().meta({ description: 'ISO 8601 timestamp.' });
const NullableText = z.string().nullable();

const SAMPLE = { sampleId: 31, position: 1, sampleTypeDescription: 'Pork loin, chilled', species: 'swine' };
export const SampleBody = z.object({
  sampleId: z.number().int(),
  position: z.number().int(),
  sampleTypeDescription: z.string(),
  species: z.enum(SPECIES_CODES).nullable().meta({ description: 'Issue 26: the species the meat comes from (narrows the specifications); null: not stated.' }),
}).meta({ example: SAMPLE });

const REQUEST = {
  requestId: 7,
  controlNumber: '2026-0007',
  clientUserId: 12,
  submissionDate: '2026-03-02T08:15:00.000Z',
  requestStatus: 'FOR_TESTING',
  representativeName: 'Juan Cruz',
  contactNumber: '639171234567',
  emailAddress: 'juan@example.com',
  companyName: 'Meat Co.',
  clientClassification: 'Meat Processing Plant',
  ltoNumber: 'LTO-123',
  companyAddress: null,
  sampleCategory: 'Raw meat',
  lotBatchNo: 'L-42',
  sampleSource: null,
  productionDate: null,
  expiryDate: null,
  samplingDate: '2026-03-01',
  samplerName: null,
  testingPurpose: 'Monitoring',
  otherTestingPurpose: null,
  gramPositiveAstText: null,
  gramNegativeAstText: null,
  estimatedFee: 1200,
  dueDate: '2026-03-09',
  tests: ['salmonella'],
  microbio: true,
  chem: false,
  molBio: false,
  salmonella: true,
};

/** SPEC section 3's request as read: its fields and a boolean flag per test code and family. */
export const RequestViewBody = z
  .object({
    requestId: z.number().int(),
    controlNumber: NullableText,
    clientUserId: z.number().int(),
    submissionDate: Timestamp,
    requestStatus: Status,
    representativeName: z.string(),
    contactNumber: z.string(),
    emailAddress: z.string(),
    companyName: z.string(),
    clientClassification: z.string(),
    ltoNumber: NullableText,
    companyAddress: NullableText,
    sampleCategory: z.string(),
    lotBatchNo: NullableText,
    sampleSource: NullableText,
    productionDate: NullableText,
    expiryDate: NullableText,
    samplingDate: NullableText,
    samplerName: NullableText,
    testingPurpose: z.string(),
    otherTestingPurpose: NullableText,
    gramPositiveAstText: NullableText,
    gramNegativeAstText: NullableText,
    estimatedFee: z.number(),
    dueDate: NullableText,
    tests: z.array(z.string()),
  })
  .catchall(z.boolean().meta({ description: 'A flag per test code and family (microbio, chem, molBio, ...).' }))
  .meta({ example: REQUEST });

export const RequestWithSamplesBody = RequestViewBody.extend({ samples: z.array(SampleBody) }).meta({ example: { ...REQUEST, samples: [SAMPLE] } });
export const RequestDetailBody = RequestWithSamplesBody.extend({
  rejectionReason: NullableText,
  conformity: ConformityBody.optional().meta({ description: 'Issue 26: the worst decision of the analyses; for a client, once released.' }),
}).meta({
  example: { ...REQUEST, samples: [SAMPLE], rejectionReason: null },
});

const FAMILY_FLAGS = { microbio: true, chem: false, molBio: false, microbial: false, elisa: false, speciesIdentification: false };
const ListRow = z.object({
  requestId: z.number().int(),
  controlNumber: NullableText,
  submissionDate: Timestamp,
  requestStatus: Status,
  microbio: z.boolean(),
  chem: z.boolean(),
  molBio: z.boolean(),
  microbial: z.boolean(),
  elisa: z.boolean(),
  speciesIdentification: z.boolean(),
});
const LIST_ROW = { requestId: 7, controlNumber: '2026-0007', submissionDate: '2026-03-02T08:15:00.000Z', requestStatus: 'FOR_RELEASE', ...FAMILY_FLAGS };

export const ReleasedRowBody = ListRow.extend({ releasedAt: Timestamp }).meta({
  example: { ...LIST_ROW, requestStatus: 'RELEASED', releasedAt: '2026-03-10T09:00:00.000Z' },
});
export const ForReleaseRowBody = ListRow.extend({
  completeMicrobio: z.boolean(),
  completeChem: z.boolean(),
  completeMolBio: z.boolean(),
  completeChemMicrobial: z.boolean(),
  completeChemElisa: z.boolean(),
  conformity: ConformityBody.optional().meta({ description: 'Issue 26: the worst decision of the analyses (null: none judged).' }),
}).meta({ example: { ...LIST_ROW, completeMicrobio: true, completeChem: false, completeMolBio: false, completeChemMicrobial: false, completeChemElisa: false } });

const TesterSampleBody = SampleBody.extend({
  lotBatchNo: NullableText,
  samplerName: NullableText,
  sampleSource: NullableText,
  productionDate: NullableText,
  expiryDate: NullableText,
  samplingDate: NullableText,
});
const TESTER_SAMPLE = { ...SAMPLE, lotBatchNo: 'L-42', samplerName: null, sampleSource: null, productionDate: null, expiryDate: null, samplingDate: '2026-03-01' };

const RECEIPT = {
  requestId: 7,
  receivedAt: '2026-03-03T08:00:00.000Z',
  receivedBy: 3,
  receivedByName: 'Ana Reyes',
  containers: 2,
  condition: 'acceptable',
  reason: null,
  temperatureC: 4,
  temperatureFlagged: false,
  flagged: false,
  recordedAt: '2026-03-03T08:05:00.000Z',
};
/** How the samples of a request arrived (traceability). */
export const ReceiptBody = z
  .object({
    requestId: z.number().int(),
    receivedAt: Timestamp,
    receivedBy: z.number().int(),
    receivedByName: z.string(),
    containers: z.number().int(),
    condition: z.enum(RECEIPT_CONDITIONS),
    reason: NullableText,
    temperatureC: z.number().nullable(),
    temperatureFlagged: z.boolean(),
    flagged: z.boolean(),
    recordedAt: Timestamp,
  })
  .meta({ example: RECEIPT });

export const ForTestingRowBody = ListRow.extend({ tests: z.array(z.string()), samples: z.array(TesterSampleBody), receipt: ReceiptBody.nullable() }).meta({
  example: { ...LIST_ROW, requestStatus: 'FOR_TESTING', tests: ['salmonella'], samples: [TESTER_SAMPLE], receipt: RECEIPT },
});

export const ClientRequestRowBody = z
  .object({ requestId: z.number().int(), controlNumber: NullableText, submissionDate: Timestamp, requestStatus: Status })
  .meta({ example: { requestId: 7, controlNumber: null, submissionDate: '2026-03-02T08:15:00.000Z', requestStatus: 'PENDING_REVIEW' } });

export const ApprovedBody = z
  .object({ requestId: z.number().int(), requestStatus: z.literal('FOR_TESTING'), controlNumber: z.string() })
  .meta({ example: { requestId: 7, requestStatus: 'FOR_TESTING', controlNumber: '2026-0007' } });
export const RejectedBody = z.object({ requestId: z.number().int(), requestStatus: z.literal('REJECTED') }).meta({ example: { requestId: 7, requestStatus: 'REJECTED' } });
export const ReleasedBody = z
  .object({ requestId: z.number().int(), requestStatus: z.literal('RELEASED'), reportNumber: z.string() })
  .meta({ example: { requestId: 7, requestStatus: 'RELEASED', reportNumber: '2026-0007-R1' } });
export const ResultRecordBody = z
  .object({ requestId: z.number().int(), controlNumber: z.string(), message: z.string() })
  .meta({ example: { requestId: 7, controlNumber: '2026-0007', message: 'The result record of this request exists.' } });

export const RequestMessageBody = z
  .object({ messageId: z.number().int(), requestId: z.number().int(), kind: z.enum(['question', 'reply', 'rejection']), body: z.string(), createdAt: Timestamp })
  .meta({ example: { messageId: 4, requestId: 7, kind: 'question', body: 'Which lot is the second sample from?', createdAt: '2026-03-02T10:00:00.000Z' } });

export const QueueRowBody = z
  .object({
    requestId: z.number().int(),
    controlNumber: NullableText,
    requestStatus: Status,
    companyName: z.string(),
    clientClassification: z.string(),
    purpose: z.string(),
    lotBatchNo: NullableText,
    samples: z.number().int(),
    tests: z.array(z.string()),
    submissionDate: Timestamp,
    waitingSince: Timestamp,
    dueDate: NullableText,
    anyPositive: z.boolean().optional(),
    conformity: ConformityBody.optional(),
    progress: z.object({ entered: z.number().int(), total: z.number().int() }).optional(),
    sampleList: z.array(TesterSampleBody).optional(),
    receipt: ReceiptBody.nullable().optional(),
    rejectionReason: NullableText.optional(),
    releasedAt: Timestamp.optional().meta({ description: 'The released list: when the results were released.' }),
  })
  .meta({
    example: {
      requestId: 7,
      controlNumber: '2026-0007',
      requestStatus: 'FOR_TESTING',
      companyName: 'Meat Co.',
      clientClassification: 'Meat Processing Plant',
      purpose: 'Monitoring',
      lotBatchNo: 'L-42',
      samples: 1,
      tests: ['salmonella'],
      submissionDate: '2026-03-02T08:15:00.000Z',
      waitingSince: '2026-03-03T08:00:00.000Z',
      dueDate: '2026-03-09',
    },
  });

export const StatusCountsBody = z
  .object(Object.fromEntries(REQUEST_STATUSES.map((status) => [status, z.number().int()])))
  .meta({ example: { PENDING_REVIEW: 1, FOR_TESTING: 2, FOR_RELEASE: 0, RELEASED: 5, REJECTED: 0 } });

export const ReceiptAnswerBody = z.object({ receipt: ReceiptBody.nullable() }).meta({ example: { receipt: RECEIPT } });

export const TimelineBody = z
  .object({
    requestId: z.number().int(),
    controlNumber: NullableText,
    requestStatus: z.string(),
    events: z.array(
      z.object({
        at: Timestamp,
        kind: z.enum(['submitted', 'question', 'reply', 'approved', 'received', 'result', 'completed', 'reopened', 'released', 'rejected', 'mail']),
        title: z.string(),
        actor: NullableText,
        detail: NullableText,
        before: z.string().optional(),
        after: z.string().optional(),
      }),
    ),
  })
  .meta({
    example: {
      requestId: 7,
      controlNumber: '2026-0007',
      requestStatus: 'FOR_TESTING',
      events: [{ at: '2026-03-02T08:15:00.000Z', kind: 'submitted', title: 'Submitted', actor: 'Juan Cruz (client)', detail: null }],
    },
  });

export const TurnaroundBody = z
  .object({
    today: z.string(),
    disciplines: z.array(z.object({ family: z.enum(FAMILIES), label: z.string(), open: z.number().int(), late: z.number().int(), oldestSubmission: NullableText })),
    requests: z.array(
      z.object({
        requestId: z.number().int(),
        controlNumber: NullableText,
        status: Status,
        companyName: z.string(),
        submissionDate: Timestamp,
        dueDate: NullableText,
        families: z.array(z.enum(FAMILIES)),
        ageDays: z.number().int(),
        daysLate: z.number().int(),
      }),
    ),
  })
  .meta({
    example: {
      today: '2026-03-05',
      disciplines: [{ family: 'microbio', label: 'Microbiology', open: 1, late: 0, oldestSubmission: '2026-03-02T08:15:00.000Z' }],
      requests: [
        {
          requestId: 7,
          controlNumber: '2026-0007',
          status: 'FOR_TESTING',
          companyName: 'Meat Co.',
          submissionDate: '2026-03-02T08:15:00.000Z',
          dueDate: '2026-03-09',
          families: ['microbio'],
          ageDays: 3,
          daysLate: 0,
        },
      ],
    },
  });

/** GET requests/turnaround/weeks: the chart per discipline and week of submission. */
export const TurnaroundWeeksBody = z
  .object({
    today: z.string(),
    window: z.object({ since: z.string(), until: z.string() }).meta({ description: 'The days of submission the chart covers.' }),
    weeks: z.array(
      z.object({
        family: z.enum(FAMILIES),
        label: z.string(),
        weeks: z.array(
          z.object({
            week: z.string().meta({ description: 'The Monday of the week of submission.' }),
            onTime: z.number().int().meta({ description: 'Released by the due date.' }),
            late: z.number().int().meta({ description: 'Released after the due date, or open past it.' }),
            open: z.number().int().meta({ description: 'Open, not yet due.' }),
          }),
        ),
      }),
    ),
  })
  .meta({
    example: {
      today: '2026-03-05',
      window: { since: '2026-03-02', until: '2026-03-05' },
      weeks: [{ family: 'microbio', label: 'Microbiology', weeks: [{ week: '2026-03-02', onTime: 0, late: 0, open: 1 }] }],
    },
  });
