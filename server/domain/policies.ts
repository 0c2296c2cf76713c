// Who may do what, in one table (DESIGN.md section 7). Pure: the API, the CLI and the UI ask the
// same question. Ownership is part of the question: a client reaches only its own requests.
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
  | 'results:read'
  | 'results:read-request'
  | 'results:list-for-testing'
  | 'results:write'
  | 'reports:read'
  | 'profile:read'
  | 'users:manage';

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
  'results:read': (a, r) => DESK.includes(a.role) || testsGroup(a.role, r.group),
  // A request's combined result: the desk, its testers, and its client once released.
  'results:read-request': (a, r) =>
    DESK.includes(a.role) || (ownsIt(a, r) && r.requestStatus === 'RELEASED') || (r.groups ?? []).some((g) => testsGroup(a.role, g)),
  'results:list-for-testing': (a) => DESK.includes(a.role) || disciplineOf(a.role) !== null,
  'results:write': (a, r) => testsGroup(a.role, r.group),
  'reports:read': (a, r) => DESK.includes(a.role) || testsGroup(a.role, r.group),
  'profile:read': (a, r) => DESK.includes(a.role) || ownsIt(a, r),
  'users:manage': (a) => a.role === 'admin',
};

export function can(actor: Actor, action: Action, resource: Resource = {}): boolean {
  return RULES[action](actor, resource);
}
