// Finds the processes a test run started that are still alive once it is over (a server a test forgot
// to stop, orphaned when its parent ended). Linux only: it reads /proc.
//
// A process is the run's when its environment carries the run's marker (every child inherits it
// unless a test builds an environment from nothing), or when it started after the run, carries no
// other run's marker, and its command line names this checkout's labctl (which catches the rest).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const MARKER = 'LAB_TEST_RUN';

/** A fresh marker value for one run: put `{ [MARKER]: id }` into the environment of every child. */
export const newRunId = () => crypto.randomBytes(8).toString('hex');

const read = (file) => {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined; // gone since the listing, or another user's process
  }
};

/** Clock ticks after boot at which a process started (field 22 of /proc/<pid>/stat). */
function startTime(pid) {
  const stat = read(`/proc/${pid}/stat`)?.toString();
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  return stat === undefined ? undefined : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** Whether this machine can be searched (it has /proc). */
export const canSearch = () => read('/proc/self/stat') !== undefined;

/**
 * The processes of run `runId` still alive, as `{ pid, command }`. `since` is startTime() of a
 * process that began before the run (this script): the labctl rule only counts younger ones.
 */
export function leftoverProcesses(runId, root, since = startTime(process.pid)) {
  const marker = Buffer.from(`${MARKER}=${runId}\0`);
  const labctl = [path.join(root, 'bin', 'labctl'), path.join(root, 'dist', 'labctl')];
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = read(`/proc/${entry}/cmdline`);
    if (!cmdline?.length) continue; // a kernel thread, or a zombie about to be reaped
    const command = cmdline.toString().replace(/\0+$/, '').replaceAll('\0', ' ');
    const environ = read(`/proc/${entry}/environ`);
    const marked = environ?.includes(marker);
    // A labctl carrying another run's marker is that run's (npm test runs this suite beside the
    // browser tests, whose servers start while a run of this suite's own is under way).
    const otherRun = !marked && environ?.includes(`${MARKER}=`);
    const ours = marked || (!otherRun && labctl.some((p) => command.includes(p)) && (startTime(entry) ?? 0) > since);
    if (ours) found.push({ pid: Number(entry), command });
  }
  return found;
}

/**
 * Leftovers that are still there after processes already on their way out had a moment to go:
 * polls until none is left or `graceMs` has passed.
 */
export async function lingeringProcesses(runId, root, graceMs = 5000) {
  const since = startTime(process.pid);
  const deadline = Date.now() + graceMs;
  let found = leftoverProcesses(runId, root, since);
  while (found.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = leftoverProcesses(runId, root, since);
  }
  return found;
}
