import { describe, expect, it } from 'vitest';
import {
  DISCIPLINES,
  ROLES,
  allowedPrefixes,
  canOpenTestPanel,
  disciplineOf,
  homePath,
  isPathAllowed,
  isPublicPath,
  isRole,
  parseRole,
  screenRole,
  testerRoleOf,
  type Discipline,
  type Role,
} from '../../server/domain/roles.js';

describe('ROLES and parseRole', () => {
  it('lists the six roles in order', () => {
    expect(ROLES).toEqual(['client', 'staff', 'chemtester', 'microbiotester', 'molbiotester', 'admin']);
  });

  it.each<[string | null | undefined, Role | null]>([
    ['client', 'client'],
    ['CLIENT', 'client'],
    ['Client', 'client'],
    ['  staff  ', 'staff'],
    ['STAFF', 'staff'],
    ['chemtester', 'chemtester'],
    ['CHEMTESTER', 'chemtester'],
    ['MicrobioTester', 'microbiotester'],
    ['molbiotester', 'molbiotester'],
    ['ADMIN', 'admin'],
    ['TESTER', null],
    ['tester', null],
    ['', null],
    ['   ', null],
    ['clients', null],
    ['client/12', null],
    ['root', null],
    [null, null],
    [undefined, null],
  ])('parseRole(%j) -> %j', (text, expected) => {
    expect(parseRole(text)).toBe(expected);
  });

  it('isRole accepts only exact lower-case roles', () => {
    for (const role of ROLES) expect(isRole(role)).toBe(true);
    expect(isRole('CLIENT')).toBe(false);
    expect(isRole(3)).toBe(false);
    expect(isRole(null)).toBe(false);
  });
});

describe('homePath', () => {
  it.each<[Role, number | string, string]>([
    ['client', 12, '/home/client/12'],
    ['client', '7', '/home/client/7'],
    ['staff', 3, '/home/staff/3'],
    ['chemtester', 4, '/home/chemtester/4'],
    ['microbiotester', 5, '/home/microbiotester/5'],
    ['molbiotester', 6, '/home/molbiotester/6'],
    ['admin', 1, '/home/staff/1'],
  ])('homePath(%s, %j) = %s', (role, id, expected) => {
    expect(homePath(role, id)).toBe(expected);
  });

  it('every home is an allowed path of its role', () => {
    for (const role of ROLES) expect(isPathAllowed(role, 42, homePath(role, 42))).toBe(true);
  });

  it('admins use the staff screens', () => {
    expect(screenRole('admin')).toBe('staff');
    expect(screenRole('client')).toBe('client');
    expect(allowedPrefixes('admin')).toEqual(allowedPrefixes('staff'));
  });
});

describe('isPublicPath', () => {
  it.each<[string, boolean]>([
    ['/login', true],
    ['/login/', true],
    ['/LOGIN', true],
    ['/tfa/alice', true],
    ['/tfa/client@demo.lab', true],
    ['/tfa/client%40demo.lab', true],
    ['/tfa', false],
    ['/tfa/a/b', false],
    ['/forget', true],
    ['/tfa-forgot-pass/someone@example.com', true],
    ['/tfa-forgot-pass', false],
    ['/not-in-system', true],
    ['/change-pass/someone@example.com', true],
    ['/change-pass', false],
    ['/password-changed', true],
    ['/register', true],
    ['/tfaverify', true],
    ['/tfaverify/x', false],
    ['/registered', true],
    ['/login?next=/x', true],
    ['/', false],
    ['', false],
    ['/home/client/1', false],
    ['/pending-requests/1', false],
    ['/no-such-page', false],
    ['/loginx', false],
    ['/registered/1', false],
    ['/constructor', false],
    ['/__proto__', false],
  ])('isPublicPath(%j) = %s', (path, expected) => {
    expect(isPublicPath(path)).toBe(expected);
  });
});

/** Every screen of SPEC section 2 with its owner role, written for user id 7 and request id 99. */
const SCREENS: ReadonlyArray<[Exclude<Role, 'admin'>, string]> = [
  ['client', '/home/client/7'],
  ['client', '/submit-a-request/7'],
  ['client', '/request-submitted/7'],
  ['client', '/request-review/7/99'],
  ['client', '/request-results/7/99'],
  ['client', '/track-my-request/7'],
  ['client', '/guide/7'],
  ['staff', '/home/staff/7'],
  ['staff', '/pending-requests/7'],
  ['staff', '/request-details/7/99'],
  ['staff', '/request-control-number/7/99'],
  ['staff', '/approved/7'],
  ['staff', '/request-additional-info/7/99'],
  ['staff', '/for-release/7'],
  ['staff', '/receive-release-database/7'],
  ['chemtester', '/home/chemtester/7'],
  ['chemtester', '/for-testing-chem/7'],
  ['chemtester', '/test-results-chem/7'],
  ['chemtester', '/testing-database-chem/7'],
  ['microbiotester', '/home/microbiotester/7'],
  ['microbiotester', '/for-testing-microbio/7'],
  ['microbiotester', '/test-results-microbio/7'],
  ['microbiotester', '/testing-database-microbio/7'],
  ['molbiotester', '/home/molbiotester/7'],
  ['molbiotester', '/for-testing-molbio/7'],
  ['molbiotester', '/test-results-molbio/7'],
  ['molbiotester', '/testing-database-molbio/7'],
];

describe('isPathAllowed', () => {
  const owner = (role: Role) => screenRole(role);

  describe.each(ROLES)('role %s', (role) => {
    it.each(SCREENS)('screen of %s %s: allowed only for its owner', (screenOwner, path) => {
      expect(isPathAllowed(role, 7, path)).toBe(owner(role) === screenOwner);
    });

    it.each(SCREENS.filter(([o]) => o === owner(role)))(
      'own screen %s %s with another user id is refused',
      (_o, path) => {
        expect(isPathAllowed(role, 8, path)).toBe(false);
        expect(isPathAllowed(role, 70, path)).toBe(false);
      },
    );

    it('no public or unknown path is allowed', () => {
      for (const path of ['/login', '/tfa/x', '/register', '/', '', '/no-such-page', '/home', '/home/7']) {
        expect(isPathAllowed(role, 7, path)).toBe(false);
      }
    });
  });

  it('accepts the user id as a string or number', () => {
    expect(isPathAllowed('client', '7', '/guide/7')).toBe(true);
    expect(isPathAllowed('client', 7, '/guide/7')).toBe(true);
  });

  it.each<[string, boolean]>([
    ['/guide/7/', true],
    ['/GUIDE/7', true],
    ['/Home/Client/7', true],
    ['/guide/7?tab=fees', true],
    ['/guide/7#fees', true],
    ['/guide', false],
    ['/guide/', false],
    ['/guide/07', false],
    ['/guide/7/extra', false],
    ['/guide/abc', false],
    ['/guide//7', true],
    ['/request-review/7', false],
    ['/request-review/7/', false],
    ['/request-review/7/99/1', false],
    ['/request-review/7/abc', false],
    ['/request-review/8/99', false],
    ['/home/client', false],
    ['/home/staff/7', false],
    ['/home/client/7/99', false],
    ['/guides/7', false],
    ['/guid/7', false],
    ['/xguide/7', false],
  ])('client 7 opening %j -> %s', (path, expected) => {
    expect(isPathAllowed('client', 7, path)).toBe(expected);
  });

  it('the {userId} segment is the one right after the prefix', () => {
    // request id equal to the user id does not make someone else's user id pass
    expect(isPathAllowed('staff', 7, '/request-details/99/7')).toBe(false);
    expect(isPathAllowed('staff', 7, '/request-details/7/7')).toBe(true);
    expect(isPathAllowed('staff', 99, '/request-details/7/99')).toBe(false);
  });

  it('a tester only opens its own discipline', () => {
    expect(isPathAllowed('chemtester', 7, '/for-testing-chem/7')).toBe(true);
    expect(isPathAllowed('chemtester', 7, '/for-testing-microbio/7')).toBe(false);
    expect(isPathAllowed('microbiotester', 7, '/test-results-chem/7')).toBe(false);
    expect(isPathAllowed('molbiotester', 7, '/testing-database-microbio/7')).toBe(false);
    expect(isPathAllowed('molbiotester', 7, '/home/chemtester/7')).toBe(false);
  });

  it('an invalid own user id allows nothing', () => {
    expect(isPathAllowed('client', '', '/guide/')).toBe(false);
    expect(isPathAllowed('client', 'abc', '/guide/abc')).toBe(false);
    expect(isPathAllowed('client', Number.NaN, '/guide/NaN')).toBe(false);
  });

  it('allowedPrefixes follow SPEC section 6', () => {
    expect(allowedPrefixes('client')).toEqual([
      'home/client',
      'submit-a-request',
      'request-submitted',
      'request-review',
      'request-results',
      'track-my-request',
      'guide',
      'request-timeline',
    ]);
    expect(allowedPrefixes('staff')).toEqual([
      'home/staff',
      'pending-requests',
      'request-details',
      'request-control-number',
      'approved',
      'request-additional-info',
      'for-release',
      'receive-release-database',
      'released',
      'request-timeline',
      'audit-trail',
      'turnaround',
      'specifications',
    ]);
    expect(allowedPrefixes('chemtester')).toEqual([
      'home/chemtester',
      'for-testing-chem',
      'test-results-chem',
      'testing-database-chem',
    ]);
    expect(allowedPrefixes('microbiotester')).toEqual([
      'home/microbiotester',
      'for-testing-microbio',
      'test-results-microbio',
      'testing-database-microbio',
    ]);
    expect(allowedPrefixes('molbiotester')).toEqual([
      'home/molbiotester',
      'for-testing-molbio',
      'test-results-molbio',
      'testing-database-molbio',
    ]);
  });
});

describe('disciplines', () => {
  it.each<[Discipline, Role]>([
    ['chem', 'chemtester'],
    ['microbio', 'microbiotester'],
    ['molbio', 'molbiotester'],
  ])('%s <-> %s', (discipline, role) => {
    expect(testerRoleOf(discipline)).toBe(role);
    expect(disciplineOf(role)).toBe(discipline);
  });

  it('non-testers have no discipline', () => {
    expect(disciplineOf('client')).toBeNull();
    expect(disciplineOf('staff')).toBeNull();
    expect(disciplineOf('admin')).toBeNull();
  });
});

describe('canOpenTestPanel', () => {
  const table: Array<[string | null | undefined, Discipline, boolean]> = [];
  for (const d of DISCIPLINES) {
    table.push(['TESTER', d, true], ['tester', d, true], ['Tester', d, true]);
    table.push(['client', d, false], ['CLIENT', d, false], ['staff', d, false], ['admin', d, false]);
    table.push(['', d, false], [null, d, false], [undefined, d, false], ['testers', d, false]);
    for (const other of DISCIPLINES) {
      table.push([`${other}tester`, d, other === d], [`${other.toUpperCase()}TESTER`, d, other === d]);
    }
  }

  it.each(table)('canOpenTestPanel(%j, %s) = %s', (userType, discipline, expected) => {
    expect(canOpenTestPanel(userType, discipline)).toBe(expected);
  });
});
