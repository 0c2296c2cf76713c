// How systemd reads an EnvironmentFile= (systemd.exec(5)), so tests can check that deploy/lab.env
// means to systemd what it means to a shell that sources it:
// - lines whose first non-blank character is "#" or ";" are comments; blank lines are skipped;
// - KEY=VALUE, whitespace around the key and around an unquoted value dropped, interior whitespace
//   kept; a "#" after the value is part of the value (there are no trailing comments);
// - unquoted: a backslash keeps the next character ("\\" is "\"), backslash-newline continues the line;
// - '...': verbatim, may span lines, no escapes;
// - "...": may span lines; backslash before " \ ` $ gives that character, backslash-newline
//   continues the line, a backslash before anything else is kept with it;
// - a quote opens a quoted part only where the value starts or right after a closing quote; after
//   an unquoted character it is an ordinary character;
// - names must be letters, digits and "_", not starting with a digit; other lines are ignored;
// - a comment ending in a backslash does not continue onto the next line (systemd 254 and later);
// - at the end of the file the value read so far is kept, even inside quotes or after a backslash
//   (as src/basic/env-file.c does; a shell refuses such a file, so the comparison test fails on it).
// systemd does no variable or "%" specifier expansion in the file.

export type SystemdEnv = Record<string, string>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ESCAPED_IN_DOUBLE_QUOTES = new Set(['"', '\\', '`', '$']);
const BLANK = new Set([' ', '\t']);
const NEWLINE = new Set(['\n', '\r']);

type State = 'line' | 'comment' | 'key' | 'beforeValue' | 'unquoted' | 'single' | 'double';

export function parseSystemdEnv(text: string): SystemdEnv {
  const env: SystemdEnv = {};
  let state: State = 'line';
  let key = '';
  let value = '';
  // Unquoted whitespace at the end of the value so far, dropped if the line ends there.
  let pendingBlanks = '';

  const finish = () => {
    const name = key.trim();
    if (NAME.test(name)) env[name] = value;
    key = '';
    value = '';
    pendingBlanks = '';
    state = 'line';
  };

  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    switch (state) {
      case 'line':
        if (c === '#' || c === ';') state = 'comment';
        else if (!BLANK.has(c) && !NEWLINE.has(c)) {
          key = c;
          state = 'key';
        }
        break;
      case 'comment':
        if (NEWLINE.has(c)) state = 'line';
        break;
      case 'key':
        if (NEWLINE.has(c)) {
          key = '';
          state = 'line';
        } else if (c === '=') state = 'beforeValue';
        else key += c;
        break;
      case 'beforeValue':
      case 'unquoted':
        if (NEWLINE.has(c)) finish();
        else if (state === 'beforeValue' && c === "'") state = 'single';
        else if (state === 'beforeValue' && c === '"') state = 'double';
        else if (c === '\\') {
          // An escaped character is kept, even a blank at the end; backslash-newline joins the lines.
          const next = text[i + 1];
          i += 1;
          value += pendingBlanks + (next === undefined || NEWLINE.has(next) ? '' : next);
          pendingBlanks = '';
          state = 'unquoted';
        } else if (BLANK.has(c)) {
          // Blanks before the value are dropped; inside it they are kept unless the line ends.
          if (state === 'unquoted') pendingBlanks += c;
        } else {
          // Quotes after the first character are ordinary characters.
          value += pendingBlanks + c;
          pendingBlanks = '';
          state = 'unquoted';
        }
        break;
      case 'single':
        if (c === "'") state = 'beforeValue';
        else value += c;
        break;
      case 'double':
        if (c === '"') state = 'beforeValue';
        else if (c === '\\') {
          const next = text[i + 1];
          i += 1;
          if (next === undefined) break;
          if (next === '\n') continue;
          value += ESCAPED_IN_DOUBLE_QUOTES.has(next) ? next : `\\${next}`;
        } else value += c;
        break;
    }
  }
  if (state !== 'line' && state !== 'comment' && state !== 'key') finish();
  return env;
}
