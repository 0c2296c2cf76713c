// The answers of the specification calls and the additive result fields of issue 26, for the API
// reference and the suite's contract check.
import { z } from 'zod';
import { DECISION_RULES, OUTCOMES, QUALIFIERS, SPEC_KINDS } from '../../domain/specifications.js';

const amount = z.number().nullable();

export const SpecificationBody = z
  .object({
    id: z.number().int(), analyte: z.string(), version: z.number().int(),
    sampleCategory: z.string().nullable(), species: z.string().nullable(), purpose: z.string().nullable(),
    kind: z.enum(SPEC_KINDS), unit: z.string().nullable(), lod: amount, loq: amount, lowerLimit: amount, upperLimit: amount, warningLevel: amount,
    n: amount, c: amount, m: amount, M: amount,
    source: z.string(), validFrom: z.string(), validTo: z.string().nullable(), createdBy: z.string(), createdAt: z.string(),
  })
  .meta({
    id: 'Specification',
    example: {
      id: 12, analyte: 'chloramphenicol', version: 1, sampleCategory: null, species: null, purpose: null, kind: 'quantitative', unit: 'µg/kg',
      lod: 0.05, loq: 0.1, lowerLimit: null, upperLimit: 0.15, warningLevel: null, n: null, c: null, m: null, M: null,
      source: 'Regulation (EU) 2019/1871, Annex', validFrom: '2010-01-01', validTo: null, createdBy: 'staff', createdAt: '2026-11-26T00:00:00.000Z',
    },
  });

export const MeasurementBody = z
  .object({ value: amount, unit: z.string().nullable(), uncertainty: amount, coverageK: amount, qualifier: z.enum(QUALIFIERS).nullable() })
  .meta({ id: 'Measurement', example: { value: 0.4, unit: 'µg/kg', uncertainty: 0.05, coverageK: 2, qualifier: null } });

export const DecisionBody = z
  .object({
    outcome: z.enum(OUTCOMES), reason: z.string(), specificationId: z.number().int(), specificationVersion: z.number().int(),
    rule: z.enum(DECISION_RULES), expectedRemark: z.enum(['positive', 'negative']),
  })
  .meta({
    id: 'Decision',
    example: { outcome: 'does_not_conform', reason: '0.4 µg/kg ± 0.05 is above the limit 0.15 µg/kg', specificationId: 12, specificationVersion: 1, rule: 'simple', expectedRemark: 'positive' },
  });

export const RuleBody = z.object({ rule: z.enum(DECISION_RULES, `rule must be one of ${DECISION_RULES.join(', ')}`) }).meta({ example: { rule: 'guarded' } });

/** A request's or a sample's summary: the worst decision of its analyses (null: none judged). */
export const ConformityBody = z.enum(OUTCOMES).nullable();
