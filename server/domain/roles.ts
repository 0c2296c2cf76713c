/**
 * Roles and the route rules of SPEC section 6 (which paths each role may open in the portal).
 *
 * PURE: no I/O, no Node or browser APIs. Imported by the server (guards, session payloads) and by
 * the UI (route guard, header home button, tester panel buttons).
 */

export const ROLES = ['client', 'staff', 'chemtester', 'microbiotester', 'molbiotester', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The three testing disciplines, as they appear in route names (`for-testing-chem`, ...). */
export const DISCIPLINES = ['chem', 'microbio', 'molbio'] as const;
export type Discipline = (typeof DISCIPLINES)[number];

export type TesterRole = 'chemtester' | 'microbiotester' | 'molbiotester';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Case-insensitive ('CLIENT', ' Staff ' and 'client' all parse); anything else gives null. */
export function parseRole(text: string | null | undefined): Role | null {
  if (typeof text !== 'string') return null;
  const lower = text.trim().toLowerCase();
  return isRole(lower) ? lower : null;
}

export function isDiscipline(value: unknown): value is Discipline {
  return typeof value === 'string' && (DISCIPLINES as readonly string[]).includes(value);
}

/** The tester role of a discipline: chem -> chemtester. */
export function testerRoleOf(discipline: Discipline): TesterRole {
  return `${discipline}tester`;
}

/** The discipline of a tester role, null for the other roles. */
export function disciplineOf(role: Role): Discipline | null {
  switch (role) {
    case 'chemtester':
      return 'chem';
    case 'microbiotester':
      return 'microbio';
    case 'molbiotester':
      return 'molbio';
    default:
      return null;
  }
}

/**
 * The role whose screens a role uses. Admins use the staff screens (and staff paths); every other
 * role uses its own.
 */
export function screenRole(role: Role): Exclude<Role, 'admin'> {
  return role === 'admin' ? 'staff' : role;
}

/** Home of a signed-in user: /home/{role}/{userId}; admins land on the staff home. */
export function homePath(role: Role, userId: number | string): string {
  return `/home/${screenRole(role)}/${String(userId).trim()}`;
}

/** How a route continues after `/{prefix}/{userId}`. */
type Tail = 'none' | 'requestId';

interface RouteRule {
  /** Path segments before the user id, e.g. ['home', 'client'] or ['for-testing-chem']. */
  readonly prefix: readonly string[];
  readonly tail: Tail;
}

function rule(prefix: string, tail: Tail = 'none'): RouteRule {
  return { prefix: prefix.split('/'), tail };
}

function testerRules(discipline: Discipline): readonly RouteRule[] {
  return [
    rule(`home/${testerRoleOf(discipline)}`),
    rule(`for-testing-${discipline}`),
    rule(`test-results-${discipline}`),
    rule(`testing-database-${discipline}`),
  ];
}

const STAFF_RULES: readonly RouteRule[] = [
  rule('home/staff'),
  rule('pending-requests'),
  rule('request-details', 'requestId'),
  rule('request-control-number', 'requestId'),
  rule('approved'),
  rule('request-additional-info', 'requestId'),
  rule('for-release'),
  rule('receive-release-database'),
  rule('released'),
  // Traceability (issue 15): a request's timeline, the audit trail, the turnaround dashboard.
  rule('request-timeline', 'requestId'),
  rule('audit-trail'),
  rule('turnaround'),
  // The specifications results are judged against (issue 26).
  rule('specifications'),
];

/** SPEC section 6: the path prefixes each role may visit (each followed by the user's own id). */
const RULES: Readonly<Record<Role, readonly RouteRule[]>> = {
  client: [
    rule('home/client'),
    rule('submit-a-request'),
    rule('request-submitted'),
    rule('request-review', 'requestId'),
    rule('request-results', 'requestId'),
    rule('track-my-request'),
    rule('guide'),
    rule('request-timeline', 'requestId'),
  ],
  staff: STAFF_RULES,
  admin: STAFF_RULES,
  chemtester: testerRules('chem'),
  microbiotester: testerRules('microbio'),
  molbiotester: testerRules('molbio'),
};

/** The prefixes (without leading slash, e.g. 'home/client', 'guide') a role may visit. */
export function allowedPrefixes(role: Role): string[] {
  return RULES[role].map((r) => r.prefix.join('/'));
}

const ID_SEGMENT = /^[0-9]+$/;

/** Lower-cased path segments without empty ones; the query string and hash are ignored. */
function segmentsOf(pathname: string): string[] {
  const path = pathname.split(/[?#]/, 1)[0] ?? '';
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.toLowerCase());
}

/**
 * Whether a signed-in user of `role` with id `userId` may open `pathname`: the path must be one of
 * the role's screens (SPEC section 6) and its {userId} segment (right after the prefix) must be the
 * user's own id. Screens with a request id need exactly one numeric request id after the user id;
 * the others take nothing after it. Matching is case-insensitive like the router's; a trailing
 * slash is accepted.
 */
export function isPathAllowed(role: Role, userId: number | string, pathname: string): boolean {
  const ownId = String(userId).trim();
  if (!ID_SEGMENT.test(ownId)) return false;
  const segments = segmentsOf(pathname);
  return RULES[role].some((r) => {
    const n = r.prefix.length;
    if (!r.prefix.every((p, i) => segments[i] === p)) return false;
    if (segments[n] !== ownId) return false;
    const rest = segments.slice(n + 1);
    if (r.tail === 'none') return rest.length === 0;
    return rest.length === 1 && ID_SEGMENT.test(rest[0] ?? '');
  });
}

/** Public screens of SPEC section 2: first segment, and whether a parameter segment follows. */
const PUBLIC_SCREENS: Readonly<Record<string, 'exact' | 'param'>> = {
  login: 'exact',
  tfa: 'param',
  forget: 'exact',
  'tfa-forgot-pass': 'param',
  'not-in-system': 'exact',
  'change-pass': 'param',
  'password-changed': 'exact',
  register: 'exact',
  tfaverify: 'exact',
  registered: 'exact',
};

/**
 * Whether `pathname` is one of the public screens (login, code entry, password reset and
 * registration screens). `/tfa/{username}`, `/tfa-forgot-pass/{email}` and `/change-pass/{email}`
 * need their parameter.
 */
export function isPublicPath(pathname: string): boolean {
  const segments = segmentsOf(pathname);
  const first = segments[0];
  if (first === undefined || !Object.hasOwn(PUBLIC_SCREENS, first)) return false;
  return PUBLIC_SCREENS[first] === 'exact' ? segments.length === 1 : segments.length === 2;
}

/**
 * SPEC section 6: the 'Show ... Tests' button is enabled for userType TESTER or the tester type of
 * the screen's discipline (CHEMTESTER, MICROBIOTESTER, MOLBIOTESTER), compared case-insensitively.
 */
export function canOpenTestPanel(userType: string | null | undefined, discipline: Discipline): boolean {
  if (typeof userType !== 'string') return false;
  const type = userType.trim().toLowerCase();
  return type === 'tester' || type === testerRoleOf(discipline);
}

/** Tooltip of a disabled 'Show ... Tests' button. */
export const NO_PERMISSION_MESSAGE = "You don't have permission to access this section";
