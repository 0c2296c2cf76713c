// The policy table (server/domain/policies.ts) as a table: role x action x resource, with the
// expected answer of each role written out, and the row scoping of each role.
import { describe, expect, it } from 'vitest';
import type { Group } from '../../server/domain/catalog.js';
import { can, hidesMissing, visibleGroups, type Action, type Actor, type Resource } from '../../server/domain/policies.js';
import type { Role } from '../../server/domain/roles.js';

const CLIENT_ID = 7;
const OTHER_CLIENT_ID = 8;

/** One actor per role; the client is CLIENT_ID, the owner of the "own" resources. */
const ACTORS: Record<Role, Actor> = {
  client: { id: CLIENT_ID, role: 'client' },
  staff: { id: 2, role: 'staff' },
  admin: { id: 3, role: 'admin' },
  chemtester: { id: 4, role: 'chemtester' },
  microbiotester: { id: 5, role: 'microbiotester' },
  molbiotester: { id: 6, role: 'molbiotester' },
};
/** The columns of every row below, in this order. */
const COLUMNS: Role[] = ['client', 'staff', 'admin', 'chemtester', 'microbiotester', 'molbiotester'];

const RESOURCES = {
  none: {},
  own: { clientUserId: CLIENT_ID },
  others: { clientUserId: OTHER_CLIENT_ID },
  microbio: { group: 'microbio' },
  chemElisa: { group: 'chemElisa' },
  chemMicrobial: { group: 'chemMicrobial' },
  molBio: { group: 'molBio' },
  'own released microbio request': { clientUserId: CLIENT_ID, requestStatus: 'RELEASED', groups: ['microbio'] },
  'own for-release microbio+molBio request': { clientUserId: CLIENT_ID, requestStatus: 'FOR_RELEASE', groups: ['microbio', 'molBio'] },
  "others' released chemElisa request": { clientUserId: OTHER_CLIENT_ID, requestStatus: 'RELEASED', groups: ['chemElisa'] },
} satisfies Record<string, Resource>;

//                         client staff admin chem micro molbio   (Y allowed, - refused)
const TABLE: Record<Action, Array<[keyof typeof RESOURCES, string]>> = {
  'request:submit': [
    ['none',    'Y - - - - -'],
    ['own',     'Y - - - - -'],
    ['others',  '- - - - - -'],
  ],
  'request:read': [
    ['own',     'Y Y Y - - -'],
    ['others',  '- Y Y - - -'],
  ],
  'request:review': [['none', '- Y Y - - -']],
  'request:approve': [['none', '- Y Y - - -']],
  'request:reject': [['none', '- Y Y - - -']],
  'request:release': [['none', '- Y Y - - -']],
  'request:ask-info': [['own', '- Y Y - - -']],
  'request:reply': [
    ['own',     'Y - - - - -'],
    ['others',  '- - - - - -'],
  ],
  'request:list-for-release': [['none', '- Y Y Y Y Y']],
  'results:read': [
    ['microbio',      '- Y Y - Y -'],
    ['chemElisa',     '- Y Y Y - -'],
    ['chemMicrobial', '- Y Y Y - -'],
    ['molBio',        '- Y Y - - Y'],
    ['none',          '- Y Y - - -'],
  ],
  'results:read-request': [
    ['own released microbio request',           'Y Y Y - Y -'],
    ['own for-release microbio+molBio request', '- Y Y - Y Y'],
    ["others' released chemElisa request",      '- Y Y Y - -'],
  ],
  'results:list-for-testing': [['none', '- Y Y Y Y Y']],
  'results:write': [
    ['microbio',      '- - - - Y -'],
    ['chemElisa',     '- - - Y - -'],
    ['chemMicrobial', '- - - Y - -'],
    ['molBio',        '- - - - - Y'],
    ['none',          '- - - - - -'],
  ],
  'request:receive': [['none', '- Y Y - - -']],
  'audit:read': [['none', '- Y Y - - -']],
  'certificate:read': [
    ['own',     'Y Y Y - - -'],
    ['others',  '- Y Y - - -'],
  ],
  // The marks of amended results: the certificate's readers, and the testers of the request's disciplines (the service narrows a tester to its own tests).
  'amendments:read': [
    ['own released microbio request',           'Y Y Y - Y -'],
    ['own for-release microbio+molBio request', 'Y Y Y - Y Y'],
    ["others' released chemElisa request",      '- Y Y Y - -'],
  ],
  'certificate:amend': [['none', '- Y Y - - -']],
  'certificate:withdraw': [['none', '- Y Y - - -']],
  'reports:read': [
    ['microbio',      '- Y Y - Y -'],
    ['chemMicrobial', '- Y Y Y - -'],
    ['none',          '- Y Y - - -'],
  ],
  'profile:read': [
    ['own',     'Y Y Y - - -'],
    ['others',  '- Y Y - - -'],
  ],
  'profile:update': [
    ['own',     'Y - - - - -'],
    ['others',  '- - - - - -'],
  ],
  'users:manage': [['none', '- - Y - - -']],
  'specs:read': [['none', '- Y Y Y Y Y']],
  'specs:manage': [['none', '- Y Y - - -']],
};

const cases = Object.entries(TABLE).flatMap(([action, rows]) =>
  rows.flatMap(([resource, answers]) => {
    const marks = answers.split(' ');
    expect(marks).toHaveLength(COLUMNS.length);
    return COLUMNS.map((role, i) => ({ action: action as Action, resource, role, allowed: marks[i] === 'Y' }));
  }),
);

describe('the policy table', () => {
  it.each(cases)('$role $action on $resource: $allowed', ({ action, resource, role, allowed }) => {
    expect(can(ACTORS[role], action, RESOURCES[resource])).toBe(allowed);
  });
});

describe('row scoping', () => {
  const SCOPES: Array<[Role, readonly Group[] | undefined, boolean]> = [
    // role            result groups it sees (undefined: every group)   missing records answered 403
    ['client',         undefined,                                       true],
    ['staff',          undefined,                                       false],
    ['admin',          undefined,                                       false],
    ['chemtester',     ['chemMicrobial', 'chemElisa'],                  false],
    ['microbiotester', ['microbio'],                                    false],
    ['molbiotester',   ['molBio'],                                      false],
  ];

  it.each(SCOPES)('%s sees groups %j; a missing record is forbidden: %s', (role, groups, hides) => {
    expect(visibleGroups(ACTORS[role])).toEqual(groups);
    expect(hidesMissing(ACTORS[role])).toBe(hides);
  });
});
