// What every text input must be (API bodies, queries and paths, CSV imports, labctl arguments):
// well-formed Unicode without control characters. A lone surrogate ("\ud800") is no character at
// all: PostgreSQL refuses it (a 500 if it got that far) and SQLite stores bytes that are not UTF-8.
// U+FFFD is what Node puts in place of bytes that are not UTF-8 (in a body or a percent-decoded
// address), so refusing it refuses text that did not decode. Control characters (C0 but tab, line
// feed and carriage return; DEL; C1) are never typed and can drive a terminal or a log reader.

import type { z } from 'zod';

// With the u flag, [\uD800-\uDFFF] matches only surrogates that are not half of a pair.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF\uFFFD]/u;

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What is wrong with `text` ("lone surrogate U+D800"), or undefined when it is well-formed text. */
export function invalidCharacterIn(text: string): string | undefined {
  const found = NOT_TEXT.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = found.charCodeAt(0);
  if (code >= 0xd800 && code <= 0xdfff) return `lone surrogate ${codePoint(found)}`;
  if (code === 0xfffd) return 'U+FFFD, the replacement character of bytes that are not UTF-8';
  return `control character ${codePoint(found)}`;
}

export const isWellFormedText = (text: string): boolean => !NOT_TEXT.test(text);

/** The refusal of `field` holding `text`, or undefined when `text` is well-formed. */
export function textProblem(field: string, text: string): string | undefined {
  const what = invalidCharacterIn(text);
  return what && `${field} contains an invalid character (${what}).`;
}

/** A zod check (`.superRefine(refuseInvalidCharacters)`) refusing what invalidCharacterIn finds, saying what it found. */
export function refuseInvalidCharacters(text: string, ctx: z.RefinementCtx): void {
  const what = invalidCharacterIn(text);
  if (what) ctx.addIssue({ code: 'custom', message: `contains an invalid character (${what})` });
}
