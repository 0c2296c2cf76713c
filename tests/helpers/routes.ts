// Every call the app mounts, read from its routers (apiRouters in server/app.ts), so a route added
// later is covered by the tests that walk them.
import { apiRouters } from '../../server/app.js';
import type { AppDeps } from '../../server/http/context.js';
import { mountedRoutes as routesOfRouters } from '../../server/http/openapi.js';

export interface Route {
  method: string;
  path: string;
  params: string[];
  /** 'METHOD /path/:param', as the tables of the tests name routes. */
  key: string;
}

/** The routes of every API router, as the OpenAPI document reads them. */
export function mountedRoutes(deps: AppDeps): Route[] {
  return routesOfRouters(apiRouters(deps)).map((route) => ({ ...route, key: `${route.method} ${route.path}` }));
}

/** The route's path with each parameter taken from `values`. */
export function fillPath(route: Route, values: Record<string, string>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No value for :${name} of ${route.key}.`);
    return values[name];
  });
}
