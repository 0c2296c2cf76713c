import type { Discipline } from '../server/domain/roles.js';

export interface DisciplineInfo {
  /** 'Chemistry', 'Microbiology', 'Molecular Biology' */
  name: string;
  /** Heading of the tester home, SPEC section 1. */
  welcome: string;
}

export const DISCIPLINE_INFO: Readonly<Record<Discipline, DisciplineInfo>> = {
  chem: { name: 'Chemistry', welcome: 'Welcome to the Chemistry Testing Portal!' },
  microbio: { name: 'Microbiology', welcome: 'Welcome to the Microbiology Testing Portal!' },
  molbio: { name: 'Molecular Biology', welcome: 'Welcome to the Molecular Biology Testing Portal!' },
};
