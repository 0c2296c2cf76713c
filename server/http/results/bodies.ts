// The answers of the results calls, for the API reference and the suite's contract check: the wide
// result shape of DESIGN.md section 6 (per sample, `<analyte>`, `<analyte>Remarks`,
// `<analyte>AnalysisDate`), the combined result of a request and a tester's whole Save.
import { z } from 'zod';
import { GROUPS } from '../../domain/catalog.js';
import { REQUEST_STATUSES } from '../../domain/requestStatus.js';
import { DecisionBody, MeasurementBody } from '../specifications/bodies.js';

const WIDE = { sampleId: 31, result: { requestId: 7 }, salmonella: 'Not detected', salmonellaRemarks: 'negative', salmonellaAnalysisDate: '2026-03-04' };

/** One sample's results of a group: its analytes' values, remarks and analysis dates by name. */
export const WideResultBody = z
  .object({ sampleId: z.number().int(), result: z.object({ requestId: z.number().int() }) })
  .catchall(
    z.union([z.string(), z.number(), z.null(), MeasurementBody, DecisionBody])
      .meta({ description: '<analyte>, <analyte>Remarks, <analyte>AnalysisDate; and (issue 26) <analyte>Measurement and <analyte>Decision of the analyses the sample has.' }),
  )
  .meta({ example: WIDE });

/** What a per-group PUT accepts: the wide shape's value fields (checked per analyte of the group). */
export const WidePayload = z
  .record(z.string(), z.union([z.string(), z.number(), z.null(), z.boolean(), MeasurementBody.partial()]))
  .meta({ description: '<analyte>, <analyte>Remarks and <analyte>AnalysisDate of the group, as the wide shape names them; and (issue 26) <analyte>Measurement and <analyte>RemarkConfirmed.', example: { salmonella: 'Not detected', salmonellaRemarks: 'negative', salmonellaAnalysisDate: '2026-03-04' } });

export const CombinedResultBody = z
  .object({
    requestId: z.number().int(),
    microbioTestResults: z.array(WideResultBody),
    chemElisaTestResults: z.array(WideResultBody),
    chemMicrobialTestResults: z.array(WideResultBody),
    molBioTestResults: z.array(WideResultBody),
    completeMicrobio: z.boolean(),
    completeChemElisa: z.boolean(),
    completeChemMicrobial: z.boolean(),
    completeMolBio: z.boolean(),
  })
  .meta({
    example: {
      requestId: 7,
      microbioTestResults: [WIDE],
      chemElisaTestResults: [],
      chemMicrobialTestResults: [],
      molBioTestResults: [],
      completeMicrobio: true,
      completeChemElisa: false,
      completeChemMicrobial: false,
      completeMolBio: false,
    },
  });

export const SavedRequestBody = z
  .object({
    requestId: z.number().int(),
    changed: z.number().int(),
    requestStatus: z.enum(REQUEST_STATUSES),
    analyses: z.array(
      z.object({
        requestId: z.number().int(),
        sampleId: z.number().int(),
        samplePosition: z.number().int(),
        testCode: z.string(),
        group: z.enum(GROUPS),
        value: z.string().nullable(),
        remark: z.enum(['positive', 'negative']).nullable(),
        analysisDate: z.string().nullable(),
        measurement: MeasurementBody.nullable().optional(),
        decision: DecisionBody.nullable().optional(),
      }),
    ),
  })
  .meta({
    example: {
      requestId: 7,
      changed: 1,
      requestStatus: 'FOR_RELEASE',
      analyses: [{ requestId: 7, sampleId: 31, samplePosition: 1, testCode: 'salmonella', group: 'microbio', value: 'Not detected', remark: 'negative', analysisDate: '2026-03-04' }],
    },
  });
