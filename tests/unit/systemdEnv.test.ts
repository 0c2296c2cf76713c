// The test helper that reads an EnvironmentFile= as systemd does (systemd.exec(5)), checked against
// the rules of that page one by one.
import { describe, expect, it } from 'vitest';
import { parseSystemdEnv } from '../helpers/systemdEnv.js';

describe('parseSystemdEnv (systemd EnvironmentFile= rules)', () => {
  it('skips blank lines and lines starting with # or ;, and lines without =', () => {
    expect(parseSystemdEnv('# a comment\n; another\n   # indented comment\n\nJUST_A_WORD\nA=1\n')).toEqual({ A: '1' });
  });

  it('drops whitespace around the key and the value but keeps it inside the value', () => {
    expect(parseSystemdEnv('  NAME =   National Meat  Inspection \t\nB=x')).toEqual({ NAME: 'National Meat  Inspection', B: 'x' });
  });

  it('keeps a # after a value as part of it: there are no trailing comments', () => {
    expect(parseSystemdEnv('DATABASE_URL=postgres://db/lab     # omit for SQLite\n')).toEqual({ DATABASE_URL: 'postgres://db/lab     # omit for SQLite' });
  });

  it('reads a single-quoted value verbatim, across lines, without escapes', () => {
    expect(parseSystemdEnv("A='x \\\" $y'\nB='two\nlines'\n")).toEqual({ A: 'x \\" $y', B: 'two\nlines' });
  });

  it('reads a double-quoted value with the shell escapes \\" \\\\ \\` \\$, keeps other backslashes, and spans lines', () => {
    expect(parseSystemdEnv('MAIL_FROM="Laboratory <portal@lab.example.org>"\n')).toEqual({ MAIL_FROM: 'Laboratory <portal@lab.example.org>' });
    expect(parseSystemdEnv('A="say \\"hi\\" \\\\ \\` \\$ \\n"\nB="one\ntwo"\n')).toEqual({ A: 'say "hi" \\ ` $ \\n', B: 'one\ntwo' });
    expect(parseSystemdEnv('A="  padded  "  \n')).toEqual({ A: '  padded  ' });
  });

  it('continues a line ending in a backslash, in an unquoted and a double-quoted value', () => {
    expect(parseSystemdEnv('A=one \\\ntwo\nB="three \\\nfour"\n')).toEqual({ A: 'one two', B: 'three four' });
  });

  it('keeps the character after a backslash in an unquoted value, so \\\\ is one backslash', () => {
    expect(parseSystemdEnv('A=a\\\\b\\ \nB=\\#not-a-comment\n')).toEqual({ A: 'a\\b ', B: '#not-a-comment' });
  });

  it('treats a quote after the first character as an ordinary character, and joins quoted parts', () => {
    expect(parseSystemdEnv('A=it\'s "here"\nB="a" \'b\'\n')).toEqual({ A: 'it\'s "here"', B: 'ab' });
  });

  it('does no variable expansion and ignores names that are not valid', () => {
    expect(parseSystemdEnv('HOME_DIR=$HOME/x\n1BAD=1\nBAD-NAME=2\nGOOD_2=3')).toEqual({ HOME_DIR: '$HOME/x', GOOD_2: '3' });
  });

  it('keeps what a quote left open or a last backslash has read at the end of the file, as systemd does', () => {
    expect(parseSystemdEnv('A="open\n')).toEqual({ A: 'open\n' });
    expect(parseSystemdEnv("A='open \\\n")).toEqual({ A: 'open \\\n' });
    expect(parseSystemdEnv('A=end \\')).toEqual({ A: 'end ' });
    expect(parseSystemdEnv('A="x\\')).toEqual({ A: 'x' });
  });

  it('ends a comment at its newline even after a backslash (systemd 254 and later)', () => {
    expect(parseSystemdEnv('# comment \\\nA=1\n')).toEqual({ A: '1' });
  });
});
