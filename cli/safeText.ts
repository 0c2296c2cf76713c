// Text from the database (a client's company name, a sample description) or from a file may hold
// terminal control sequences: ESC [2J clears the screen, OSC 52 writes the clipboard, BEL rings.
// Everything labctl prints passes through terminalSafe, which shows such characters as \uXXXX
// instead of sending them to the terminal. The escape is also valid inside JSON strings, so --json
// output keeps its meaning.

// C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F: 8-bit CSI, OSC, ...). A
// carriage return is kept only before a newline (CRLF line ends of a CSV export); alone it would
// let a value overwrite the start of its line.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character but tab, newline and CRLF shown as \uXXXX. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, escape);
}
