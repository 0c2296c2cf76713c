import { describe, expect, it } from 'vitest';
import { safeNextPath, withNextPage } from '../../ui/nextPage.js';

describe('the page to return to after logging in (?next=)', () => {
  it('follows a path of this portal, with its query and fragment', () => {
    expect(safeNextPath('/track-my-request/12')).toBe('/track-my-request/12');
    expect(safeNextPath('/request-results/12/7?print=1#summary')).toBe('/request-results/12/7?print=1#summary');
    expect(safeNextPath('/for-testing-microbio/3/../4')).toBe('/for-testing-microbio/4');
  });

  it('never leaves the site: absolute, protocol-relative and scheme URLs are refused', () => {
    for (const next of [
      'https://evil.example/',
      'http://evil.example/track-my-request/12',
      '//evil.example',
      '//evil.example/track-my-request/12',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/track-my-request/12\u0000',
      '/\u007f/evil.example',
      ' /track-my-request/12',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'track-my-request/12',
      '',
    ]) {
      expect(safeNextPath(next), next).toBeNull();
    }
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath(undefined)).toBeNull();
    expect(safeNextPath(`/${'a'.repeat(2000)}`)).toBeNull();
  });

  it('does not return to the login screens themselves', () => {
    expect(safeNextPath('/login')).toBeNull();
    expect(safeNextPath('/login?next=/home/client/1')).toBeNull();
    expect(safeNextPath('/tfa/client@demo.lab')).toBeNull();
    expect(safeNextPath('/loginx')).toBe('/loginx');
  });

  it('carries the page along in the next screen\'s address', () => {
    expect(withNextPage('/tfa/a@b.c', '/track-my-request/12?x=1')).toBe('/tfa/a@b.c?next=%2Ftrack-my-request%2F12%3Fx%3D1');
    expect(withNextPage('/tfa/a@b.c', null)).toBe('/tfa/a@b.c');
  });
});
