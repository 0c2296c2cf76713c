// The specifications the product ships (migration 019 stores them as version 1 of each; staff edit
// them in the portal or with `labctl specs import`). Each names its source; docs/specifications.md
// explains the choices. Data only: the decision rule (specifications.ts) knows no analyte.
import type { SpecificationDraft } from './specifications.js';

const ANY = { sampleCategory: null, species: null, purpose: null, warningLevel: null, validTo: null } as const;
const NONE = { lod: null, loq: null, lowerLimit: null, upperLimit: null, n: null, c: null, m: null, M: null } as const;
const FROM = '2010-01-01';

const notDetected = (analyte: string, unit: string | null, source: string): SpecificationDraft => ({
  ...ANY, ...NONE, analyte, kind: 'qualitative', unit, source, validFrom: FROM,
});
const residueScreen = (analyte: string, group: string) =>
  notDetected(analyte, null, `Regulation (EU) No 37/2010, Table 1 (MRLs of ${group}): a screening test detecting the group at or below its MRLs; detected = suspect above the MRL, to be confirmed`);
const upTo = (analyte: string, limit: number, loq: number, lod: number, source: string): SpecificationDraft => ({
  ...ANY, ...NONE, analyte, kind: 'quantitative', unit: 'µg/kg', lod, loq, upperLimit: limit, source, validFrom: FROM,
});
const undeclaredSpecies = (analyte: string): SpecificationDraft => ({
  ...ANY, ...NONE, analyte, kind: 'quantitative', unit: '% w/w', lod: 0.01, loq: 0.1, upperLimit: 1, validFrom: FROM,
  source: 'Commission Recommendation 2013/99/EU (coordinated control plan on the fraudulent labelling of meat): undeclared species at or above 1 % w/w is reported as adulteration',
});

export const DEFAULT_SPECIFICATIONS: readonly SpecificationDraft[] = [
  { ...ANY, ...NONE, analyte: 'standardPlateCount', kind: 'count', unit: 'cfu/g', n: 5, c: 2, m: 500000, M: 5000000, validFrom: FROM,
    source: 'Regulation (EC) No 2073/2005, Annex I, 2.1.6 (minced meat, aerobic colony count, process hygiene criterion)' },
  notDetected('salmonellaSp', 'per 25 g', 'Regulation (EC) No 2073/2005, Annex I, 1.4-1.9 (Salmonella: not detected in 25 g, n = 5, c = 0)'),
  { ...ANY, ...NONE, analyte: 'eColi', kind: 'count', unit: 'cfu/g', n: 5, c: 2, m: 50, M: 500, validFrom: FROM,
    source: 'Regulation (EC) No 2073/2005, Annex I, 2.1.6 (minced meat, E. coli, process hygiene criterion)' },
  residueScreen('betaLactams', 'penicillins and cephalosporins'),
  residueScreen('tetracyclines', 'tetracyclines'),
  residueScreen('sulfonamides', 'sulfonamides'),
  residueScreen('aminoglycosides', 'aminoglycosides'),
  residueScreen('macrolides', 'macrolides'),
  residueScreen('quinolones', 'quinolones'),
  upTo('chloramphenicol', 0.15, 0.1, 0.05, 'Regulation (EU) 2019/1871, Annex (reference point for action for chloramphenicol: 0.15 µg/kg)'),
  upTo('nitrofuranAoz', 0.5, 0.3, 0.1, 'Regulation (EU) 2019/1871, Annex (reference point for action for nitrofurans and their metabolites: 0.5 µg/kg)'),
  upTo('nitrufuranAmoz', 0.5, 0.3, 0.1, 'Regulation (EU) 2019/1871, Annex (reference point for action for nitrofurans and their metabolites: 0.5 µg/kg)'),
  notDetected('beta_agonists', 'µg/kg', 'Council Directive 96/22/EC, Article 2 (beta-agonists prohibited for growth promotion): not detected'),
  upTo('corticosteroids', 0.75, 0.5, 0.2, 'Regulation (EU) No 37/2010, Table 1 (dexamethasone, muscle of bovine, porcine, caprine and equine species: 0.75 µg/kg)'),
  notDetected('olaquindox', 'µg/kg', 'Regulation (EC) No 2821/98 (olaquindox withdrawn), not listed in Regulation (EU) No 37/2010: not detected'),
  notDetected('stilbenes', 'µg/kg', 'Council Directive 96/22/EC, Article 2 (stilbenes prohibited): not detected'),
  upTo('ractopamine', 10, 1, 0.5, 'Codex Alimentarius CX/MRL 2 (ractopamine, muscle of cattle and pigs: 10 µg/kg)'),
  ...['dog', 'cat', 'chicken', 'buffalo', 'cattle', 'horse', 'goat', 'sheep', 'swine'].map(undeclaredSpecies),
];
