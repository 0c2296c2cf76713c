import { describe, expect, it } from 'vitest';
import { ANALYTES, DISCIPLINE_GROUPS, analytesOfGroup, catalogOrder, findAnalyte, purposeLabel } from '../../server/domain/catalog.js';

describe('test catalog', () => {
  it('holds every analyte of the results groups once', () => {
    expect(analytesOfGroup('microbio').map((a) => a.code)).toEqual([
      'standardPlateCount', 'coliformCount', 'salmonellaSp', 'staphylococcusAureus', 'eColi',
      'eColiAndeColi0O157', 'campylobacter', 'yeastAndMolds', 'cultureAndSensitivityTest',
    ]);
    expect(analytesOfGroup('chemMicrobial')).toHaveLength(6);
    expect(analytesOfGroup('chemElisa').map((a) => a.code)).toContain('beta_agonists');
    expect(analytesOfGroup('molBio').map((a) => a.label)).toEqual([
      'Dog', 'Cat', 'Chicken', 'Buffalo', 'Cattle', 'Horse', 'Goat', 'Sheep', 'Swine',
    ]);
    expect(new Set(ANALYTES.map((a) => a.code)).size).toBe(ANALYTES.length);
  });

  it('carries the prices and report names of the specification', () => {
    expect(findAnalyte('campylobacter')?.price).toBe(1500);
    expect(findAnalyte('eColiAndeColi0O157')?.price).toBe(700);
    expect(findAnalyte('eColiAndeColi0O157')?.reportName).toBe('eColiAndEColi0O157');
    expect(findAnalyte('beta_agonists')?.reportName).toBe('betaAgonists');
    expect(findAnalyte('quinolones')?.price).toBe(375);
    expect(findAnalyte('nitrufuranAmoz')?.label).toBe('Nitrufuran AMOZ');
  });

  it('sorts tests in catalog order, unknown codes last', () => {
    expect(['dog', 'unknown', 'betaLactams', 'standardPlateCount'].sort((a, b) => catalogOrder(a) - catalogOrder(b))).toEqual([
      'standardPlateCount', 'betaLactams', 'dog', 'unknown',
    ]);
  });

  it('maps the chemistry discipline to both chemical groups', () => {
    expect(DISCIPLINE_GROUPS.chem).toEqual(['chemMicrobial', 'chemElisa']);
  });

  it('names the monitoring purpose after the laboratory', () => {
    expect(purposeLabel('Monitoring', 'NMIS')).toBe('NMIS Monitoring Program');
    expect(purposeLabel('Imported', 'NMIS')).toBe('Imported (COMI Issuance)');
  });
});
