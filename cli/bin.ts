// The labctl process: runs main on the process's streams and sets the exit code.

// NO_COLOR (no-color.org): Ink's colour library reads FORCE_COLOR, not NO_COLOR, when it is first
// imported, hence before main (and anything that may load Ink) is.
if (process.env.NO_COLOR && process.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = '0';

// `labctl requests list | head -1`: the reader has gone, so the rest of the output has nowhere to
// go. Stop quietly, as cat and grep do, instead of crashing with EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const { main } = await import('./main.js');
const code = await main(process.argv);
if (code !== 0) process.exitCode = code;
