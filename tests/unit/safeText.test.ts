import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../cli/safeText.js';

describe('terminalSafe', () => {
  it('shows escape sequences, bells and other control characters as \\uXXXX', () => {
    expect(terminalSafe('Meats\u001b]0;owned\u0007 Inc.')).toBe('Meats\\u001b]0;owned\\u0007 Inc.');
    expect(terminalSafe('\u001b[2J\u001b[3J')).toBe('\\u001b[2J\\u001b[3J');
    expect(terminalSafe('a\u0000b\u0008c\u007fd')).toBe('a\\u0000b\\u0008c\\u007fd');
    // 8-bit CSI and OSC (C1), which some terminals obey like ESC [ and ESC ].
    expect(terminalSafe('x\u009b2Jy\u009dz')).toBe('x\\u009b2Jy\\u009dz');
  });

  it('keeps tabs, newlines, CRLF line ends and printable text of any script', () => {
    expect(terminalSafe('a\tb\nc\r\nµg/kg 25 °C, Ñandú, 食品')).toBe('a\tb\nc\r\nµg/kg 25 °C, Ñandú, 食品');
  });

  it('escapes a carriage return that is not a line end', () => {
    expect(terminalSafe('safe\rEVIL')).toBe('safe\\u000dEVIL');
  });

  it('keeps JSON valid and meaning the same', () => {
    const json = terminalSafe(JSON.stringify({ company: 'A\u009bB\u001bC' }));
    expect([...json].every((c) => c >= ' ' && (c < '\u007f' || c > '\u009f'))).toBe(true);
    expect(JSON.parse(json)).toEqual({ company: 'A\u009bB\u001bC' });
  });
});
