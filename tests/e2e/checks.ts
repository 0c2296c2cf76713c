/** Checks every screen's tests make: the page fits its width, axe-core finds nothing wrong. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';

export async function expectNoHorizontalScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

const IMPACTS = ['minor', 'moderate', 'serious', 'critical'];

export interface AxeCheck {
  /** Only violations of this impact or worse count (default: every violation counts). */
  atLeast?: 'moderate' | 'serious';
  /** Scan the whole page rather than its main region. */
  wholePage?: boolean;
}

/** An axe-core scan of the page's main region (or the whole page) finds no violation. */
export async function expectNoAxeViolations(page: Page, { atLeast, wholePage = false }: AxeCheck = {}) {
  // Legacy mode runs axe.run in the page itself. The default runs each frame's part and then opens
  // a blank page to combine them, which doubles the time of a scan; the portal has no frames, so
  // the result is the same. Only violations keep their details: the nodes of every passing check,
  // which axe otherwise brings back, made a scan take 440 ms rather than 320.
  const axe = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  const { violations } = await (wholePage ? axe : axe.include('main')).analyze();
  // A violation without a known impact always counts.
  const counted = violations.filter((v) => !atLeast || IMPACTS.indexOf(v.impact ?? 'critical') >= IMPACTS.indexOf(atLeast));
  expect(counted.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`), `axe on ${page.url()}`).toEqual([]);
}

/** No serious axe violation at 1280 wide, nor at a phone's 390 (where nothing may be wider than the screen); back to 1280. */
export async function expectAccessibleAtBothWidths(page: Page) {
  await expectNoAxeViolations(page, { atLeast: 'serious' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, { atLeast: 'serious' });
  await page.setViewportSize({ width: 1280, height: 800 });
}
