/**
 * The laboratory's names come from the server's LAB_NAME / LAB_SHORT_NAME settings, which it writes
 * into index.html's meta tags when serving the page (no inline script under our CSP). The Vite dev
 * server serves the defaults written in index.html.
 */
const meta = (name: string, fallback: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || fallback;

/** The product's title, shown in the header of every screen and in the browser tab. */
export const LAB_NAME: string = meta('lab-name', 'National Meat Inspection Service');

/** Short name, as in 'NMIS Monitoring Program'. */
export const LAB_SHORT_NAME: string = meta('lab-short-name', 'NMIS');

/** Subtitle under the title in the header. */
export const PORTAL_NAME = 'Laboratory Portal';
