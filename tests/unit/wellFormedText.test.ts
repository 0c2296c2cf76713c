import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidCharacterIn, isWellFormedText, textProblem } from '../../server/domain/wellFormedText.js';

describe('well-formed text', () => {
  it('names what is wrong: a lone surrogate, a control character, bytes that were not UTF-8', () => {
    expect(['a\ud800b', 'x\udfff', 'Not\u0000detected', 'ring\u0007', 'del\u007f', 'csi\u009b', 'caf\ufffd'].map(invalidCharacterIn)).toEqual([
      'lone surrogate U+D800',
      'lone surrogate U+DFFF',
      'control character U+0000',
      'control character U+0007',
      'control character U+007F',
      'control character U+009B',
      'U+FFFD, the replacement character of bytes that are not UTF-8',
    ]);
    expect(textProblem('results.0.eColi', '<10\ud800')).toBe('results.0.eColi contains an invalid character (lone surrogate U+D800).');
  });

  it('keeps tabs, line breaks, accents, emoji (a surrogate pair) and every other character', () => {
    expect(['', '<10\tcfu/g\r\nre-read', 'Pâté µg/kg 10 °C', '🦠 E. coli', '\u00a0non-breaking', 'ß'].map(invalidCharacterIn)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('agrees with String.prototype.isWellFormed on surrogates, whatever the text', () => {
    const withoutControls = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/g, ''); // eslint-disable-line no-control-regex
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const text = withoutControls(s);
        expect(isWellFormedText(text)).toBe((text as unknown as { isWellFormed(): boolean }).isWellFormed());
      }),
    );
  });
});
