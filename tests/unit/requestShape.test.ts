import { describe, expect, it } from 'vitest';
import { familyFlags, requestFlags } from '../../server/domain/requestShape.js';

describe('request flags', () => {
  it('flags the families and groups of the ticked tests (the rows of the work lists)', () => {
    expect(familyFlags(['betaLactams', 'dog', 'notATest'])).toEqual({
      microbio: false, chem: true, molBio: true, microbial: true, elisa: false, speciesIdentification: true,
    });
    expect(familyFlags([])).toEqual({ microbio: false, chem: false, molBio: false, microbial: false, elisa: false, speciesIdentification: false });
  });

  it('the "as read" shape has the same family flags plus one per test', () => {
    const flags = requestFlags(['chloramphenicol', 'eColi'], { positive: ' ', negative: 'Ampicillin' });
    expect(flags).toMatchObject({ ...familyFlags(['chloramphenicol', 'eColi']), chloramphenicol: true, eColi: true, dog: false, gramPositiveAst: false, gramNegativeAst: true });
  });
});
