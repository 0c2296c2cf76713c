import { describe, expect, it } from 'vitest';
import {
  astPanelsFor,
  buildSubmitPayload,
  SUBMIT_ALERTS,
  SubmitRequestPayload,
  submitFormProblems,
  type SubmitRequestForm,
} from '../../server/domain/requestPayload.js';
import { isIsoDate } from '../../server/domain/dates.js';

const form = (overrides: Partial<SubmitRequestForm> = {}): SubmitRequestForm => ({
  representativeName: 'acme',
  contactNumber: '639171234567',
  emailAddress: 'Buyer@Acme.test',
  companyName: 'Acme Meats',
  clientClassification: 'Importer',
  ltoNumber: 'lto-1',
  testingPurpose: 'Monitoring',
  otherTestingPurpose: '',
  sampleCategory: 'Monitoring',
  lotBatchNo: '',
  sampleSource: ' Farm 3 ',
  productionDate: '',
  expiryDate: '2026-06-01',
  samplingDate: '',
  samplerName: '',
  samples: ['Beef', ''],
  tests: ['eColi', 'chloramphenicol'],
  gramPositiveAst: '',
  gramNegativeAst: '',
  ...overrides,
});

const NOW = new Date('2026-03-16T09:00:00.000Z');

describe('submitFormProblems (SPEC section 5)', () => {
  it('accepts a complete form, empty sample descriptions included', () => {
    expect(submitFormProblems(form())).toEqual({ messages: [], fields: {} });
  });

  it.each([
    ['contact', { representativeName: ' ' }],
    ['contact', { contactNumber: '' }],
    ['contact', { emailAddress: '' }],
    ['contact', { companyName: '' }],
    ['samples', { samples: [] }],
    ['testingPurpose', { testingPurpose: '' as const }],
    ['otherTestingPurpose', { testingPurpose: 'Others' as const, otherTestingPurpose: '  ' }],
    ['sampleCategory', { sampleCategory: '' as const }],
  ])('asks for required fields and marks the %s field', (field, change) => {
    const problems = submitFormProblems(form(change));
    expect(problems.messages).toEqual(['Please fill in all required fields.']);
    expect(Object.keys(problems.fields)).toEqual([field]);
  });

  it('reports every problem at once, required fields first', () => {
    const problems = submitFormProblems(form({ testingPurpose: '', sampleCategory: '', tests: [] }));
    expect(problems.messages).toEqual([SUBMIT_ALERTS.required, SUBMIT_ALERTS.noTest]);
    expect(Object.keys(problems.fields).sort()).toEqual(['sampleCategory', 'testingPurpose', 'tests']);
  });

  it('refuses a species of origin the list does not offer, naming the sample (not a missing field)', () => {
    expect(submitFormProblems(form({ sampleSpecies: ['swine', ''] }))).toEqual({ messages: [], fields: {} });
    const problems = submitFormProblems(form({ sampleSpecies: ['swine', 'deer'] }));
    expect(problems.fields).toEqual({ sampleSpecies: 'Choose the species of origin of sample 2 from the list, or Not stated.' });
    expect(problems.messages).toEqual(['Choose the species of origin of sample 2 from the list, or Not stated.']);
  });

  it('asks for a test when none known is ticked', () => {
    expect(submitFormProblems(form({ tests: [] })).messages).toEqual(['Please select at least one test.']);
    expect(submitFormProblems(form({ tests: ['organoleptic'] })).fields.tests).toBe('Select at least one test.');
  });
});

describe('buildSubmitPayload', () => {
  it('sends every test as a boolean flag, blank texts as null and the timestamps of now', () => {
    const p = buildSubmitPayload(form(), NOW) as Record<string, unknown>;
    expect(p).toMatchObject({
      eColi: true,
      chloramphenicol: true,
      dog: false,
      cultureAndSensitivityTest: false,
      lotBatchNo: null,
      sampleSource: 'Farm 3',
      productionDate: null,
      expiryDate: '2026-06-01',
      otherTestingPurpose: null,
      gramPositiveAst: null,
      submissionDate: '2026-03-16T09:00:00.000Z',
      createdAt: '2026-03-16T09:00:00.000Z',
      updatedAt: '2026-03-16T09:00:00.000Z',
      sample: [
        { sampleId: 1, sampleTypeDescription: 'Beef' },
        { sampleId: 2, sampleTypeDescription: '' },
      ],
    });
  });

  it('sends the AST panels only with culture and sensitivity, the other purpose only for Others', () => {
    const panels = { gramPositiveAst: 'Oxacillin', gramNegativeAst: 'Ampicillin' };
    expect(buildSubmitPayload(form(panels), NOW)).toMatchObject({ gramPositiveAst: null, gramNegativeAst: null });
    expect(buildSubmitPayload(form({ ...panels, tests: ['cultureAndSensitivityTest'] }), NOW)).toMatchObject(panels);
    expect(buildSubmitPayload(form({ testingPurpose: 'Others', otherTestingPurpose: 'Study' }), NOW)).toMatchObject({ otherTestingPurpose: 'Study' });
  });

  it('sends a species of origin only for the samples that state one (issue 26), which the server takes per sample', () => {
    const p = buildSubmitPayload(form({ sampleSpecies: ['cattle', ''] }), NOW);
    expect(p.sample).toEqual([{ sampleId: 1, sampleTypeDescription: 'Beef', species: 'cattle' }, { sampleId: 2, sampleTypeDescription: '' }]);
    expect(SubmitRequestPayload.parse(p)).toMatchObject({ samples: ['Beef', ''], sampleSpecies: ['cattle', null] });
    expect(SubmitRequestPayload.parse({ ...p, sample: [{ sampleTypeDescription: 'Pork', species: '' }, { sampleTypeDescription: 'Lamb', species: null }] }))
      .toMatchObject({ sampleSpecies: [null, null] });
    const unknown = SubmitRequestPayload.safeParse({ ...p, sample: [{ sampleTypeDescription: 'Venison', species: 'Deer' }] });
    expect(unknown.success ? [] : unknown.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['sample.0.species', 'must be one of dog, cat, chicken, buffalo, cattle, horse, goat, sheep, swine (or null: not stated)'],
    ]);
  });

  it('builds what the server schema accepts', () => {
    const parsed = SubmitRequestPayload.parse(buildSubmitPayload(form(), NOW));
    expect(parsed).toEqual({
      representativeName: 'acme',
      contactNumber: '639171234567',
      clientClassification: 'Importer',
      ltoNumber: 'LTO-1',
      lotBatchNo: null,
      sampleSource: 'Farm 3',
      productionDate: null,
      expiryDate: '2026-06-01',
      samplingDate: null,
      samplerName: null,
      samples: ['Beef', ''],
      sampleSpecies: [null, null],
      testingPurpose: 'Monitoring',
      otherTestingPurpose: null,
      sampleCategory: 'Monitoring',
      tests: ['eColi', 'chloramphenicol'],
      gramPositiveAst: null,
      gramNegativeAst: null,
    });
  });
});

describe('SubmitRequestPayload', () => {
  const valid = () => buildSubmitPayload(form(), NOW) as Record<string, unknown>;
  const issuesOf = (data: unknown) => {
    const result = SubmitRequestPayload.safeParse(data);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };

  it('lists the ticked tests in catalog order and drops unknown keys such as a fee', () => {
    const parsed = SubmitRequestPayload.parse({ ...valid(), dog: true, eColi: false, estimatedFee: 1, madeUpTest: true });
    expect(parsed.tests).toEqual(['chloramphenicol', 'dog']);
    expect(parsed).not.toHaveProperty('estimatedFee');
  });

  it('needs at least one known test and the other purpose text, alongside other problems', () => {
    const flagsOff = { eColi: false, chloramphenicol: false, madeUpTest: true };
    expect(issuesOf({ ...valid(), ...flagsOff, representativeName: '', testingPurpose: 'Others' })).toEqual(['representativeName', 'otherTestingPurpose', 'tests']);
  });

  it('accepts blank and missing optional fields as null', () => {
    const p = valid();
    delete p.lotBatchNo;
    const parsed = SubmitRequestPayload.parse({ ...p, productionDate: '', samplerName: '   ', ltoNumber: undefined });
    expect(parsed).toMatchObject({ lotBatchNo: null, productionDate: null, samplerName: null, ltoNumber: null });
  });

  it('refuses more samples than the limit', () => {
    const sample = Array.from({ length: 101 }, (_, i) => ({ sampleId: i + 1, sampleTypeDescription: 'Beef' }));
    expect(issuesOf({ ...valid(), sample })).toEqual(['sample']);
  });
});

describe('isIsoDate', () => {
  it('accepts real calendar dates only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-3-01')).toBe(false);
    expect(isIsoDate('2026-03-01T00:00:00Z')).toBe(false);
  });
});

describe('astPanelsFor', () => {
  const panels = { gramPositiveAst: 'Oxacillin', gramNegativeAst: 'Ampicillin' };
  it('keeps the AST panels with Culture and Sensitivity ticked and clears them without it', () => {
    expect(astPanelsFor(['cultureAndSensitivityTest', 'eColi'], panels, null)).toEqual(panels);
    expect(astPanelsFor(['eColi'], panels, '')).toEqual({ gramPositiveAst: '', gramNegativeAst: '' });
  });
});
