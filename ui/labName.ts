/**
 * The product's title, shown in the header of every screen and in the browser tab.
 * One place to change it; a build can also set VITE_LAB_NAME / VITE_LAB_SHORT_NAME.
 */
export const LAB_NAME: string = import.meta.env.VITE_LAB_NAME || 'National Meat Inspection Service';

/** Short name, as in 'NMIS Monitoring Program'. */
export const LAB_SHORT_NAME: string = import.meta.env.VITE_LAB_SHORT_NAME || 'NMIS';

/** Subtitle under the title in the header. */
export const PORTAL_NAME = 'Laboratory Portal';
