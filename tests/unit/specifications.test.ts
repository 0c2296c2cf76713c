import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applicableSpecification, currentVersions, decide, DECISION_RULES, judgeStored, measurementFromRemark, rangesOverlap, requirementText, sameDecision, specificationProblems, summarize,
  type DecisionRule, type Measurement, type Outcome, type Specification,
} from '../../server/domain/specifications.js';

const base: Specification = {
  id: 7, analyte: 'chloramphenicol', version: 2, sampleCategory: null, species: null, purpose: null,
  kind: 'quantitative', unit: 'µg/kg', lod: null, loq: null, lowerLimit: null, upperLimit: null, warningLevel: null,
  n: null, c: null, m: null, M: null, source: 'Regulation (EU) 2019/1871', validFrom: '2020-01-01', validTo: null,
  createdBy: 'staff', createdAt: '2026-01-01T00:00:00.000Z',
};
const spec = (over: Partial<Specification>): Specification => ({ ...base, ...over });
const measured = (value: number, uncertainty: number | null = null): Measurement => ({ value, unit: 'µg/kg', uncertainty, coverageK: uncertainty == null ? null : 2, qualifier: null });
const censored = (qualifier: Measurement['qualifier']): Measurement => ({ value: null, unit: null, uncertainty: null, coverageK: null, qualifier });

// Integer quantities keep L ± U exact in floating point, so the boundaries are tested exactly.
const limit = fc.integer({ min: 2, max: 100_000 });
const rule = fc.constantFrom<DecisionRule>(...DECISION_RULES);

describe('decide: an upper limit', () => {
  it('simple acceptance: at or below the limit conforms, above it does not, whatever U', () => {
    fc.assert(fc.property(limit, fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 1000 }), (L, U, d) => {
      const s = spec({ upperLimit: L });
      expect(decide(s, measured(L, U), 'simple').outcome).toBe('conforms');
      expect(decide(s, measured(L - d, U), 'simple').outcome).toBe('conforms');
      expect(decide(s, measured(L + d, U), 'simple').outcome).toBe('does_not_conform');
    }));
  });

  it('guarded acceptance: conforms at L − U and below, inconclusive within U of the limit, does not conform above L + U', () => {
    fc.assert(fc.property(limit, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (L, U, d) => {
      const s = spec({ upperLimit: L });
      expect(decide(s, measured(L - U, U), 'guarded').outcome).toBe('conforms');
      expect(decide(s, measured(L - U - d, U), 'guarded').outcome).toBe('conforms');
      expect(decide(s, measured(L - U + Math.min(d, 2 * U), U), 'guarded').outcome).toBe('inconclusive');
      expect(decide(s, measured(L, U), 'guarded').outcome).toBe('inconclusive');
      expect(decide(s, measured(L + U, U), 'guarded').outcome).toBe('inconclusive');
      expect(decide(s, measured(L + U + d, U), 'guarded').outcome).toBe('does_not_conform');
    }));
  });

  it('guarded acceptance is never more lenient than simple acceptance, and equals it without U', () => {
    fc.assert(fc.property(
      fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e4, noNaN: true }),
      (L, x, U) => {
        const s = spec({ upperLimit: L });
        const guarded = decide(s, measured(x, U), 'guarded').outcome;
        const simple = decide(s, measured(x, U), 'simple').outcome;
        if (guarded === 'conforms') expect(simple).toBe('conforms');
        if (guarded === 'does_not_conform') expect(simple).toBe('does_not_conform');
        expect(decide(s, measured(x), 'guarded').outcome).toBe(simple);
      },
    ));
  });

  it('names the limit, the value and U in the reason, and stores the specification version and the rule', () => {
    const d = decide(spec({ upperLimit: 0.15 }), measured(0.4, 0.05), 'guarded');
    expect(d).toEqual({
      outcome: 'does_not_conform', reason: '0.4 µg/kg ± 0.05 is above the limit 0.15 µg/kg', specificationId: 7, specificationVersion: 2,
      rule: 'guarded', expectedRemark: 'positive',
    });
    expect(decide(spec({ upperLimit: 10 }), measured(4), 'guarded').reason).toBe('4 µg/kg is within the limit (at most 10 µg/kg) (no uncertainty stated: guard band 0)');
  });
});

describe('decide: a lower limit and a range', () => {
  it('mirrors the upper limit at the lower limit ± U for both rules', () => {
    fc.assert(fc.property(limit, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (L, U, d) => {
      const s = spec({ lowerLimit: L });
      expect(decide(s, measured(L, U), 'simple').outcome).toBe('conforms');
      expect(decide(s, measured(L - d, U), 'simple').outcome).toBe('does_not_conform');
      expect(decide(s, measured(L + U, U), 'guarded').outcome).toBe('conforms');
      expect(decide(s, measured(L, U), 'guarded').outcome).toBe('inconclusive');
      expect(decide(s, measured(L - U - d, U), 'guarded').outcome).toBe('does_not_conform');
    }));
  });

  it('a range conforms only inside both limits', () => {
    const s = spec({ lowerLimit: 5, upperLimit: 10 });
    expect(decide(s, measured(7), 'simple').outcome).toBe('conforms');
    expect(decide(s, measured(4), 'simple').outcome).toBe('does_not_conform');
    expect(decide(s, measured(11), 'simple').outcome).toBe('does_not_conform');
    expect(decide(s, measured(7, 1), 'guarded').outcome).toBe('conforms');
    expect(decide(s, measured(9.5, 1), 'guarded').outcome).toBe('inconclusive');
  });
});

describe('decide: at the LOQ and the LOD', () => {
  it('< LOQ and not detected conform to an upper limit at or above the LOQ, under both rules', () => {
    fc.assert(fc.property(limit, fc.integer({ min: 0, max: 1000 }), rule, (L, gap, r) => {
      const loq = Math.max(1, L - gap);
      const s = spec({ upperLimit: L, loq, lod: loq / 2 });
      expect(decide(s, censored('below_loq'), r).outcome).toBe('conforms');
      expect(decide(s, censored('not_detected'), r).outcome).toBe('conforms');
      expect(decide(s, censored('below_loq'), r).expectedRemark).toBe('negative');
    }));
  });

  it('a value quantified at the LOQ is judged as a number', () => {
    fc.assert(fc.property(limit, rule, (L, r) => {
      const s = spec({ upperLimit: L, loq: L, lod: 1 });
      expect(decide(s, measured(L), r).outcome).toBe('conforms');
      expect(decide(s, measured(L + 1), r).outcome).toBe('does_not_conform');
    }));
  });

  it('< LOQ cannot show a limit below the LOQ is met, and fails a lower limit at or above it', () => {
    expect(decide(spec({ upperLimit: 1, loq: 2 }), censored('below_loq'), 'simple').outcome).toBe('inconclusive');
    expect(decide(spec({ lowerLimit: 5, loq: 2 }), censored('below_loq'), 'simple').outcome).toBe('does_not_conform');
    expect(decide(spec({ lowerLimit: 1, loq: 2 }), censored('below_loq'), 'simple').outcome).toBe('inconclusive');
    expect(decide(spec({ upperLimit: 1 }), censored('below_loq'), 'simple').outcome).toBe('inconclusive');
  });

  it('detected but not quantified is inconclusive against a limit, and reads as a positive finding', () => {
    const d = decide(spec({ upperLimit: 1, loq: 0.5 }), censored('detected'), 'simple');
    expect(d.outcome).toBe('inconclusive');
    expect(d.expectedRemark).toBe('positive');
  });
});

describe('decide: qualitative and count specifications', () => {
  const salmonella = spec({ analyte: 'salmonellaSp', kind: 'qualitative', unit: 'per 25 g', source: 'Regulation (EC) No 2073/2005' });

  it('detected does not conform, not detected conforms, under both rules; the + / − follows', () => {
    fc.assert(fc.property(rule, (r) => {
      expect(decide(salmonella, measurementFromRemark('positive'), r)).toMatchObject({ outcome: 'does_not_conform', expectedRemark: 'positive' });
      expect(decide(salmonella, measurementFromRemark('negative'), r)).toMatchObject({ outcome: 'conforms', expectedRemark: 'negative' });
      expect(decide(salmonella, censored(null), r).outcome).toBe('inconclusive');
    }));
  });

  it('a 3-class plan: ≤ m conforms, > M does not, between them depends on c', () => {
    const count = spec({ kind: 'count', unit: 'cfu/g', n: 5, c: 2, m: 100, M: 1000 });
    const cfu = (value: number, uncertainty: number | null = null): Measurement => ({ ...measured(value, uncertainty), unit: 'cfu/g' });
    expect(decide(count, cfu(100), 'simple').outcome).toBe('conforms');
    expect(decide(count, cfu(500), 'simple').outcome).toBe('inconclusive');
    expect(decide({ ...count, c: 0 }, cfu(500), 'simple').outcome).toBe('does_not_conform');
    expect(decide(count, cfu(1001), 'simple').outcome).toBe('does_not_conform');
    expect(decide(count, cfu(95, 10), 'guarded').outcome).toBe('inconclusive');
    expect(decide(count, cfu(995, 10), 'guarded').outcome).toBe('inconclusive');
    expect(decide(count, censored('not_detected'), 'guarded').outcome).toBe('conforms');
  });

  it('states the requirement in words', () => {
    expect(requirementText(spec({ upperLimit: 0.15 }))).toBe('at most 0.15 µg/kg');
    expect(requirementText(spec({ lowerLimit: 5, upperLimit: 10 }))).toBe('5 to 10 µg/kg');
    expect(requirementText(salmonella)).toBe('not detected (per 25 g)');
    expect(requirementText(spec({ kind: 'count', unit: 'cfu/g', n: 5, c: 2, m: 50, M: 500 }))).toBe('m = 50, M = 500 cfu/g (n = 5, c = 2)');
  });

  it('a unit that differs from the specification is never judged', () => {
    expect(decide(spec({ upperLimit: 10 }), { ...measured(1), unit: 'mg/kg' }, 'simple').outcome).toBe('inconclusive');
  });
});

describe('judgeStored and sameDecision: a stored result judged again (re-evaluation)', () => {
  const limitOf = (upperLimit: number, version: number) => spec({ upperLimit, version, loq: 0.1 });
  const stored = { value: '0.4 µg/kg', remark: 'positive' as const, measurement: measured(0.4) };

  it('judges the measurement against the specification given, under the rule given', () => {
    const before = judgeStored(limitOf(0.15, 1), stored, 'simple');
    const after = judgeStored(limitOf(0.5, 2), stored, 'simple');
    expect(before).toMatchObject({ outcome: 'does_not_conform', specificationVersion: 1 });
    expect(after).toMatchObject({ outcome: 'conforms', specificationVersion: 2, reason: '0.4 µg/kg is within the limit (at most 0.5 µg/kg)' });
    expect(sameDecision(before, after)).toBe(false);
    expect(sameDecision(before, judgeStored(limitOf(0.15, 1), stored, 'simple'))).toBe(true);
  });

  it('a new version or another rule is another decision, even with the same outcome', () => {
    const v1 = judgeStored(limitOf(0.5, 1), stored, 'simple');
    expect(sameDecision(v1, judgeStored(limitOf(0.5, 2), stored, 'simple'))).toBe(false);
    expect(sameDecision(v1, judgeStored(limitOf(0.5, 1), stored, 'guarded'))).toBe(false);
    // The order the fields were read in does not matter.
    expect(sameDecision(v1, v1 && { expectedRemark: v1.expectedRemark, rule: v1.rule, specificationVersion: v1.specificationVersion, specificationId: v1.specificationId, reason: v1.reason, outcome: v1.outcome })).toBe(true);
  });

  it('a + / − stands for a measurement only against a qualitative specification; no value, no specification: no decision', () => {
    const qualitative = spec({ kind: 'qualitative', unit: null });
    expect(judgeStored(qualitative, { value: 'Detected', remark: 'positive', measurement: null }, 'guarded')).toMatchObject({ outcome: 'does_not_conform' });
    expect(judgeStored(qualitative, { value: 'Not detected', remark: 'negative', measurement: null }, 'simple')).toMatchObject({ outcome: 'conforms' });
    expect(judgeStored(limitOf(0.5, 1), { value: 'see report', remark: 'negative', measurement: null }, 'simple')).toBeNull();
    expect(judgeStored(qualitative, { value: null, remark: 'negative', measurement: null }, 'simple')).toBeNull();
    expect(judgeStored(null, stored, 'simple')).toBeNull();
    expect(sameDecision(null, null)).toBe(true);
    expect(sameDecision(null, judgeStored(limitOf(0.5, 1), stored, 'simple'))).toBe(false);
  });
});

describe('applicableSpecification', () => {
  const specs = [
    spec({ id: 1, version: 1, upperLimit: 0.3, validFrom: '2019-01-01' }),
    spec({ id: 2, version: 2, upperLimit: 0.15, validFrom: '2022-11-28' }),
    spec({ id: 3, version: 1, upperLimit: 0.1, species: 'swine', validFrom: '2019-01-01' }),
    spec({ id: 4, version: 1, analyte: 'nitrofuranAoz', upperLimit: 0.5, validFrom: '2019-01-01', validTo: '2019-12-31' }),
  ];
  const at = (on: string, over: Partial<{ analyte: string; species: string | null }> = {}) =>
    applicableSpecification(specs, { analyte: 'chloramphenicol', sampleCategory: 'Raw meat', species: null, purpose: null, on, ...over })?.id ?? null;

  it('takes the newest version in force on the date', () => {
    expect(at('2021-06-01')).toBe(1);
    expect(at('2022-11-28')).toBe(2);
    expect(at('2018-12-31')).toBe(null);
  });

  it('prefers the narrower scope, and ends a version at its validTo', () => {
    expect(at('2026-01-01', { species: 'swine' })).toBe(3);
    expect(at('2019-12-31', { analyte: 'nitrofuranAoz' })).toBe(4);
    expect(at('2020-01-01', { analyte: 'nitrofuranAoz' })).toBe(null);
  });

  it('lists the current version per scope', () => {
    expect(currentVersions(specs, '2026-01-01').map((s) => s.id).sort()).toEqual([2, 3]);
  });

  it('finds overlapping date ranges', () => {
    expect(rangesOverlap({ validFrom: '2020-01-01', validTo: null }, { validFrom: '2030-01-01', validTo: null })).toBe(true);
    expect(rangesOverlap({ validFrom: '2020-01-01', validTo: '2020-12-31' }, { validFrom: '2021-01-01', validTo: null })).toBe(false);
    expect(rangesOverlap({ validFrom: '2020-01-01', validTo: '2020-12-31' }, { validFrom: '2020-12-31', validTo: null })).toBe(true);
  });
});

describe('summarize', () => {
  it('the worst outcome wins; nothing judged is null', () => {
    const outcome = fc.constantFrom<Outcome | null>('conforms', 'does_not_conform', 'inconclusive', null);
    fc.assert(fc.property(fc.array(outcome), (os) => {
      const s = summarize(os);
      if (os.includes('does_not_conform')) expect(s).toBe('does_not_conform');
      else if (os.includes('inconclusive')) expect(s).toBe('inconclusive');
      else if (os.includes('conforms')) expect(s).toBe('conforms');
      else expect(s).toBe(null);
    }));
  });
});

describe('specificationProblems', () => {
  it('refuses a limit below the LOQ, and accepts one at it', () => {
    expect(specificationProblems({ ...base, upperLimit: 0.1, loq: 0.2 })).toEqual(['upperLimit 0.1 is below the LOQ 0.2: a result at the limit could not be quantified']);
    expect(specificationProblems({ ...base, upperLimit: 0.2, loq: 0.2 })).toEqual([]);
  });

  it('needs a limit for a quantitative kind and a unit', () => {
    expect(specificationProblems({ ...base, unit: null })).toEqual(['a quantitative specification needs a lowerLimit or an upperLimit', 'a quantitative specification needs a unit']);
  });
});
