// Passwords for labctl: typed at a hidden prompt on a terminal, or read from standard input with a
// --...-stdin flag in scripts, never only from a flag that `ps` shows to every user of the machine.
import { io } from './io.js';
import { AbortError, UsageError } from './runtime.js';

export interface SecretOptions {
  /** What to ask, e.g. "Password for rosa@lab.example". */
  prompt: string;
  /** The command's flag that reads the secret from standard input, e.g. "--password-stdin". */
  stdinFlag: string;
  /** The flag was given: read standard input instead of asking. */
  fromStdin?: boolean;
  /** Ask twice and insist on the same answer (a new password). */
  confirm?: boolean;
}

/** Standard input up to its end, without the line end a shell's echo or a file adds. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text.replace(/\r?\n$/, '');
}

/** One line typed on the terminal without echo; Ctrl-C or Ctrl-D gives up. */
function askHidden(prompt: string): Promise<string> {
  const { stdin, stderr } = io();
  const tty = stdin as NodeJS.ReadStream;
  stderr.write(`${prompt}: `);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      tty.off('data', onData);
      tty.setRawMode(false);
      tty.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const c of chunk.toString('utf8')) {
        if (c === '\r' || c === '\n') return finish();
        if (c === '\u0003' || c === '\u0004') return finish(new AbortError('Cancelled.'));
        if (c === '\u007f' || c === '\b') typed = typed.slice(0, -1);
        else if (c >= ' ') typed += c;
      }
    };
    tty.setRawMode(true);
    tty.resume();
    tty.on('data', onData);
  });
}

/**
 * A secret from standard input (`fromStdin`) or a hidden prompt. Without a terminal to ask on, the
 * refusal names the flag to use instead.
 */
export async function readSecret({ prompt, stdinFlag, fromStdin, confirm }: SecretOptions): Promise<string> {
  const { stdin, stderr } = io();
  if (fromStdin) {
    const secret = await readAll(stdin);
    if (!secret) throw new UsageError(`${stdinFlag}: standard input is empty; pipe the password in, e.g. printf '%s' "$PASSWORD" | labctl ... ${stdinFlag}`);
    return secret;
  }
  if (!stdin.isTTY || !stderr.isTTY) {
    throw new UsageError(`${prompt} needs a terminal to ask on; pass ${stdinFlag} and give it on standard input instead.`);
  }
  const secret = await askHidden(prompt);
  if (confirm && (await askHidden(`${prompt} (again)`)) !== secret) throw new AbortError('The two passwords differ; nothing was changed.');
  return secret;
}
