import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// Same bound as React.lazy's own: any props (pages take none or a discipline).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PageComponent = ComponentType<any>;

/**
 * A page loaded on first use: `lazyPage(() => import('./pages/staff/X.js'), 'X')`. Pages export
 * named components; React.lazy wants a default export, so this picks the named one. The bundler
 * groups each role area's pages into one chunk (ui/vite.config.ts).
 */
export function lazyPage<K extends string, M extends Record<K, PageComponent>>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
