// Who may do what, in one table (DESIGN.md section 7). Pure: the API, the CLI and the UI ask the
// same question. Ownership is part of the question: a client reaches only its own requests. Rows too:
// which result groups a user sees, and how a record that does not exist is answered.
import { DISCIPLINE_GROUPS, type Group } from './catalog.js';
import { disciplineOf, type Role } from './roles.js';

export type Action =
  | 'request:submit'
  | 'request:read'
  | 'request:review'
  | 'request:approve'
  | 'request:reject'
  | 'request:release'
  | 'request:ask-info'
  | 'request:reply'
  | 'request:list-for-release'
  | 'request:receive'
  | 'audit:read'
  | 'results:read'
  | 'results:read-request'
  | 'results:list-for-testing'
  | 'results:write'
  | 'reports:read'
  | 'certificate:read'
  | 'amendments:read'
  | 'certificate:amend'
  | 'certificate:withdraw'
  | 'profile:read'
  | 'profile:update'
  | 'users:manage'
  | 'specs:read'
  | 'specs:manage';

export interface Actor {
  id: number;
  role: Role;
}

export interface Resource {
  /** Owner of the request or profile concerned. */
  clientUserId?: number;
  /** Result group concerned (results and reports). */
  group?: Group;
  /** Result groups of the request concerned, and its status (a request's combined result). */
  groups?: readonly Group[];
  requestStatus?: string;
}

const DESK: readonly Role[] = ['staff', 'admin'];

/** Whether `role` is the tester of the discipline that writes `group`. */
export function testsGroup(role: Role, group: Group | undefined): boolean {
  const discipline = disciplineOf(role);
  return discipline !== null && group !== undefined && DISCIPLINE_GROUPS[discipline].includes(group);
}

const ownsIt = (actor: Actor, r: Resource) => actor.role === 'client' && r.clientUserId === actor.id;

const RULES: Record<Action, (actor: Actor, r: Resource) => boolean> = {
  'request:submit': (a, r) => a.role === 'client' && (r.clientUserId === undefined || r.clientUserId === a.id),
  'request:read': (a, r) => DESK.includes(a.role) || ownsIt(a, r),
  'request:review': (a) => DESK.includes(a.role),
  'request:approve': (a) => DESK.includes(a.role),
  'request:reject': (a) => DESK.includes(a.role),
  'request:release': (a) => DESK.includes(a.role),
  'request:ask-info': (a) => DESK.includes(a.role),
  'request:reply': (a, r) => ownsIt(a, r),
  // The for-release and released lists: the desk, and each tester for its own discipline.
  'request:list-for-release': (a) => DESK.includes(a.role) || disciplineOf(a.role) !== null,
  'request:receive': (a) => DESK.includes(a.role),
  // The whole audit trail (every user's actions): the desk only; a client sees its own request's timeline.
  'audit:read': (a) => DESK.includes(a.role),
  'results:read': (a, r) => DESK.includes(a.role) || testsGroup(a.role, r.group),
  // A request's combined result: the desk, its testers, and its client once released.
  'results:read-request': (a, r) =>
    DESK.includes(a.role) || (ownsIt(a, r) && r.requestStatus === 'RELEASED') || (r.groups ?? []).some((g) => testsGroup(a.role, g)),
  'results:list-for-testing': (a) => DESK.includes(a.role) || disciplineOf(a.role) !== null,
  'results:write': (a, r) => testsGroup(a.role, r.group),
  'reports:read': (a, r) => DESK.includes(a.role) || testsGroup(a.role, r.group),
  // Certificates of analysis: the desk reads any, a client its own (the service adds: released only).
  'certificate:read': (a, r) => DESK.includes(a.role) || ownsIt(a, r),
  // The marks of amended results (who, when, why, old and new reading): whoever reads the certificate,
  // and the testers of the request's disciplines, who read their own tests' marks only (not the certificate).
  'amendments:read': (a, r) => DESK.includes(a.role) || ownsIt(a, r) || (r.groups ?? []).some((g) => testsGroup(a.role, g)),
  'certificate:amend': (a) => DESK.includes(a.role),
  'certificate:withdraw': (a) => DESK.includes(a.role),
  'profile:read': (a, r) => DESK.includes(a.role) || ownsIt(a, r),
  // A client keeps its own company address up to date; the desk reads it but does not change it.
  'profile:update': (a, r) => ownsIt(a, r),
  'users:manage': (a) => a.role === 'admin',
  // Specifications and the decision rule (issue 26): the desk and the testers read them, the desk sets them.
  'specs:read': (a) => DESK.includes(a.role) || disciplineOf(a.role) !== null,
  'specs:manage': (a) => DESK.includes(a.role),
};

export function can(actor: Actor, action: Action, resource: Resource = {}): boolean {
  return RULES[action](actor, resource);
}

/**
 * The result groups whose rows `actor` sees: a tester its own discipline's, everyone else every group
 * (undefined: no limit by group; a client's rows are limited by ownership instead).
 */
export function visibleGroups(actor: Actor): readonly Group[] | undefined {
  const discipline = disciplineOf(actor.role);
  return discipline === null ? undefined : DISCIPLINE_GROUPS[discipline];
}

/**
 * Whether a record that does not exist is answered 403, like someone else's, instead of 404: so for a
 * client, who could otherwise probe which ids exist.
 */
export function hidesMissing(actor: Actor): boolean {
  return actor.role === 'client';
}
