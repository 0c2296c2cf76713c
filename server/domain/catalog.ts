// The laboratory's test catalog: every orderable analyte with its API name (SPEC section 3), the label
// the tester panels show (SPEC section 2), its price and turnaround (SPEC section 9). Pure data, shared
// by server, CLI and UI, so a price or label changes in exactly one place.
import type { Discipline } from './roles.js';

export const FAMILIES = ['microbio', 'chem', 'molBio'] as const;
export type Family = (typeof FAMILIES)[number];

/** A result group: the unit the results calls (SPEC section 7) read and write. */
export const GROUPS = ['microbio', 'chemMicrobial', 'chemElisa', 'molBio'] as const;
export type Group = (typeof GROUPS)[number];


export interface Analyte {
  /** API / database name, e.g. `beta_agonists` (spelled as the wire format spells it). */
  code: string;
  /** Label on the tester panel (SPEC section 2). */
  label: string;
  /** Label on the submission form and fee list (SPEC section 9). */
  orderLabel: string;
  family: Family;
  group: Group;
  /** Fee in PHP per sample (Culture and Sensitivity: per panel). */
  price: number;
  /** Processing time in working days. */
  turnaroundDays: number;
  /** Name used in the report maps '{reportName}PosNegCountsByMonthAndYear'. */
  reportName: string;
  /** The test method the certificate of analysis cites (ISO/IEC 17025 7.8.2.1 f). */
  method: string;
  /** Unit the result is reported in. */
  unit: string;
}

/** Method references per test code (standard methods; in-house methods by their document number). */
const METHODS: Record<string, { method: string; unit: string }> = {
  standardPlateCount: { method: 'ISO 4833-1:2013', unit: 'cfu/g' },
  coliformCount: { method: 'ISO 4832:2006', unit: 'cfu/g' },
  salmonellaSp: { method: 'ISO 6579-1:2017', unit: 'per 25 g' },
  staphylococcusAureus: { method: 'ISO 6888-1:2021', unit: 'cfu/g' },
  eColi: { method: 'ISO 16649-2:2001', unit: 'cfu/g' },
  eColiAndeColi0O157: { method: 'ISO 16649-2:2001; ISO 16654:2001', unit: 'cfu/g; per 25 g' },
  campylobacter: { method: 'ISO 10272-1:2017', unit: 'per 10 g' },
  yeastAndMolds: { method: 'ISO 21527-1:2008', unit: 'cfu/g' },
  cultureAndSensitivityTest: { method: 'CLSI M02 / M100 disk diffusion', unit: 'zone diameter (mm)' },
};
const INHIBITION_METHOD = { method: 'Microbial inhibition test, in-house method LM-CHEM-01', unit: 'qualitative' };
const ELISA_METHOD = { method: 'ELISA screening, in-house method LM-CHEM-02', unit: 'µg/kg' };
const SPECIES_METHOD = { method: 'Real-time PCR species identification, in-house method LM-MB-01', unit: 'qualitative' };

const microbio = (code: string, label: string, orderLabel: string, price: number, days: number, reportName = code): Analyte => ({
  code, label, orderLabel, family: 'microbio', group: 'microbio', price, turnaroundDays: days, reportName, ...METHODS[code],
});
const inhibition = (code: string, label: string, orderLabel: string): Analyte => ({
  code, label, orderLabel, family: 'chem', group: 'chemMicrobial', price: 375, turnaroundDays: 5, reportName: code, ...INHIBITION_METHOD,
});
const elisa = (code: string, label: string, orderLabel: string, reportName = code): Analyte => ({
  code, label, orderLabel, family: 'chem', group: 'chemElisa', price: 1500, turnaroundDays: 6, reportName, ...ELISA_METHOD,
});
const species = (code: string, label: string): Analyte => ({
  code, label, orderLabel: label, family: 'molBio', group: 'molBio', price: 1500, turnaroundDays: 5, reportName: code, ...SPECIES_METHOD,
});

// Order within each group is the order of the tester panels in SPEC section 2.
export const ANALYTES: readonly Analyte[] = [
  microbio('standardPlateCount', 'Standard/Aerobic Plate Count', 'Standard Plate Count', 150, 7),
  microbio('coliformCount', 'Coliform count', 'Coliform Count', 150, 10),
  microbio('salmonellaSp', 'Salmonella sp.', 'Salmonella sp.', 350, 10),
  microbio('staphylococcusAureus', 'Staphylococcus aureus', 'Staphylococcus aureus', 350, 7),
  microbio('eColi', 'E.Coli', 'E. Coli', 350, 7),
  microbio('eColiAndeColi0O157', 'E. coli and E.Coli 0157:H7', 'E. Coli and E. Coli O157:H7', 700, 15, 'eColiAndEColi0O157'),
  microbio('campylobacter', 'Campylobacter', 'Campylobacter', 1500, 10),
  microbio('yeastAndMolds', 'Yeast and Molds', 'Yeast and Molds', 300, 7),
  // The spec states 7-16 days for microbiology; culture and sensitivity is the slowest of them.
  microbio('cultureAndSensitivityTest', 'Culture and Sensitivity Test', 'Culture and Sensitivity', 1500, 16),
  inhibition('betaLactams', 'Beta Lactams', 'Beta-lactams'),
  inhibition('tetracyclines', 'Tetracyclines', 'Tetracyclines'),
  inhibition('sulfonamides', 'Sulfonamides', 'Sulfonamides'),
  inhibition('aminoglycosides', 'Aminoglycosides', 'Aminoglycosides'),
  inhibition('macrolides', 'Macrolides', 'Macrolides'),
  inhibition('quinolones', 'Quinolones', 'Quinolones'),
  elisa('chloramphenicol', 'Chloramphenicol', 'Chloramphenicol'),
  elisa('nitrofuranAoz', 'Nitrofuran AOZ', 'Nitrofuran AOZ'),
  elisa('beta_agonists', 'Beta Agonists', 'Beta-agonists', 'betaAgonists'),
  elisa('corticosteroids', 'Corticosteroids', 'Corticosteroids'),
  elisa('olaquindox', 'Olaquindox', 'Olaquindox'),
  elisa('nitrufuranAmoz', 'Nitrufuran AMOZ', 'Nitrofuran AMOZ'),
  elisa('stilbenes', 'Stilbenes', 'Stilbenes'),
  elisa('ractopamine', 'Ractopamine', 'Ractopamine'),
  species('dog', 'Dog'),
  species('cat', 'Cat'),
  species('chicken', 'Chicken'),
  species('buffalo', 'Buffalo'),
  species('cattle', 'Cattle'),
  species('horse', 'Horse'),
  species('goat', 'Goat'),
  species('sheep', 'Sheep'),
  species('swine', 'Swine'),
];

export const ANALYTE_CODES = ANALYTES.map((a) => a.code);
const byCode = new Map(ANALYTES.map((a) => [a.code, a]));

export function findAnalyte(code: string): Analyte | undefined {
  return byCode.get(code);
}

const catalogIndex = new Map(ANALYTES.map((a, i) => [a.code, i]));

/** Where a test stands in the catalog (unknown codes last): sort by it to list tests as every screen does. */
export function catalogOrder(code: string): number {
  return catalogIndex.get(code) ?? ANALYTES.length;
}

export function analytesOfGroup(group: Group): Analyte[] {
  return ANALYTES.filter((a) => a.group === group);
}

export function analytesOfFamily(family: Family): Analyte[] {
  return ANALYTES.filter((a) => a.family === family);
}

/**
 * The species a sample's meat may come from (its species of origin, issue 26): the catalogue's nine
 * species of the species identification tests, in catalogue order. Maximum residue limits differ per
 * species, so a specification may be narrowed to one of them.
 */
export const SPECIES_CODES = analytesOfGroup('molBio').map((a) => a.code) as [string, ...string[]];
const speciesLabels = new Map(analytesOfGroup('molBio').map((a) => [a.code, a.label]));

/** The species' label (e.g. 'Swine' for swine); unknown codes as given. */
export function speciesLabel(code: string): string {
  return speciesLabels.get(code) ?? code;
}

/** The text screens and the certificate show for a sample's species of origin. */
export const SPECIES_NOT_STATED = 'Not stated';

/** The result groups each tester discipline writes. */
export const DISCIPLINE_GROUPS: Record<Discipline, readonly Group[]> = {
  chem: ['chemMicrobial', 'chemElisa'],
  microbio: ['microbio'],
  molbio: ['molBio'],
};

export function disciplineOfGroup(group: Group): Discipline {
  return group === 'microbio' ? 'microbio' : group === 'molBio' ? 'molbio' : 'chem';
}

/** The discipline testing a family (every group of a family is one discipline's). */
export function disciplineOfFamily(family: Family): Discipline {
  return disciplineOfGroup(analytesOfFamily(family)[0].group);
}

export const FAMILY_LABELS: Record<Family, string> = {
  microbio: 'Microbiological',
  chem: 'Chemical',
  // DESIGN.md section 10: the spec's "Micro Biological" is a defect.
  molBio: 'Molecular Biology',
};

export const GROUP_LABELS: Record<Group, string> = {
  microbio: 'Microbiology Tests',
  chemElisa: 'Chemical ELISA Tests',
  chemMicrobial: 'Chemical Microbial Tests',
  molBio: 'Molecular Biology Tests',
};

/** Section titles on the submission form and tester panels. */
export const GROUP_SECTION_TITLES: Record<Group, string> = {
  microbio: 'Microbiological Tests',
  chemMicrobial: 'Microbial Inhibition Test',
  chemElisa: 'ELISA Tests',
  molBio: 'Species Identification',
};

/** Turnaround stated at submission (SPEC section 9). */
export const FAMILY_TURNAROUND_TEXT: Record<Family, string> = {
  microbio: '7-16 days',
  chem: '5-6 days (Microbial Inhibition 5, ELISA 6)',
  molBio: '5 days',
};

/** Sample condition notes on the submission form (SPEC section 5). */
export const SAMPLE_CONDITION_NOTES: Record<Family, string> = {
  microbio:
    'Average sample temperature 10°C or below; average weight 250 g minimum for meat, 50 g minimum for cecal content or intact cecum.',
  chem: 'No fat tissue; average weight 250 g minimum.',
  molBio: 'Average weight 5 g minimum.',
};

/** Sample requirements per test type for the guide (SPEC section 9). */
export const SAMPLE_REQUIREMENTS: readonly { testType: string; requirement: string }[] = [
  { testType: 'Physical and Microbiological', requirement: 'At least 250 g per sample, arriving at 10 °C or below.' },
  { testType: 'Chemical / Veterinary Drug Residue', requirement: 'Average of 250 g per sample, excluding fat.' },
  { testType: 'Molecular Biology (Species Identification)', requirement: 'At least 5 g per sample.' },
];

export const PACKAGING_INSTRUCTIONS: readonly string[] = [
  'Pack each sample individually and hygienically.',
  'Seal and label every sample.',
  'Samples must have no unusual odor.',
  'Transport samples in an ice box with coolant.',
];

export interface GuideFeeRow {
  group: string;
  test: string;
  /** PHP; for rows covering several tests, the fee of each. */
  fee: number;
  each: boolean;
  days: number;
}

/** The guide's fee and processing-time table (SPEC section 9), including the guide-only tests. */
export const GUIDE_FEE_TABLE: readonly GuideFeeRow[] = [
  { group: 'Physical', test: 'Organoleptic', fee: 50, each: false, days: 2 },
  { group: 'Physical', test: 'pH', fee: 35, each: false, days: 2 },
  { group: 'Microbiological', test: 'Standard/Aerobic Plate Count', fee: 150, each: false, days: 7 },
  { group: 'Microbiological', test: 'Coliform Count', fee: 150, each: false, days: 10 },
  { group: 'Microbiological', test: 'Salmonella sp.', fee: 350, each: false, days: 10 },
  { group: 'Microbiological', test: 'Staphylococcus aureus', fee: 350, each: false, days: 7 },
  { group: 'Microbiological', test: 'E.Coli', fee: 350, each: false, days: 7 },
  { group: 'Microbiological', test: 'E. coli and E.Coli 0157:H7', fee: 700, each: false, days: 15 },
  { group: 'Microbiological', test: 'Campylobacter', fee: 1500, each: false, days: 10 },
  { group: 'Microbiological', test: 'Yeast and Molds', fee: 300, each: false, days: 7 },
  { group: 'Parasitological', test: 'Trichinella spp. Identification', fee: 150, each: false, days: 3 },
  {
    group: 'Chemical microbial inhibition',
    test: 'Beta-lactams, Tetracyclines, Sulfonamides, Aminoglycosides, Quinolones, Macrolides',
    fee: 375, each: true, days: 5,
  },
  {
    group: 'ELISA',
    test: 'Chloramphenicol, Nitrofurans AOZ, Nitrofurans AMOZ, Olaquindox, Beta-Agonists, Stilbenes, Corticosteroids, Ractopamine',
    fee: 1500, each: true, days: 6,
  },
  {
    group: 'Molecular biology',
    test: 'Goat, Chicken, Cattle, Sheep, Swine, Horse, Buffalo, Dog, Cat',
    fee: 1500, each: true, days: 5,
  },
];

export const PURPOSES = ['Monitoring', 'Local_Trade', 'Imported', 'Export', 'Complaint', 'Others'] as const;
export type Purpose = (typeof PURPOSES)[number];

export function purposeLabel(purpose: Purpose, labShortName: string): string {
  switch (purpose) {
    case 'Monitoring': return `${labShortName} Monitoring Program`;
    case 'Local_Trade': return 'For Local Trade';
    case 'Imported': return 'Imported (COMI Issuance)';
    case 'Export': return 'Export (OMIC Issuance)';
    case 'Complaint': return 'Complaint';
    case 'Others': return 'Others';
  }
}

export const SAMPLE_CATEGORIES = ['Walk-in', 'Monitoring'] as const;
export type SampleCategory = (typeof SAMPLE_CATEGORIES)[number];

export const CLIENT_CLASSIFICATIONS = [
  'Importer', 'Exporter', 'Slaughterhouse', 'Poultry Dressing Plant', 'Meat Dealer', 'Meat Processing Plant',
  'Meat Cutting Plant', 'Consumer', 'Plant Officer', 'Cold Storage Warehouse', 'Others',
] as const;

