// Lets a stopping server finish the calls it took before its database closes. server.close() stops
// new connections, but a keep-alive client goes on sending calls on its open one, and a call whose
// caller hung up is still running when its socket closes: waiting for the sockets alone closed the
// database under such calls. So the calls being handled are counted, and once the server is
// stopping every answer asks its caller to close the connection.
import type { Middleware } from 'koa';

export interface CallDrain {
  /** First in the chain: counts the call and, once stopping, answers with `Connection: close`. */
  middleware: Middleware;
  /** From now on every answer closes its connection. */
  stop(): void;
  /** Resolves when no call is being handled. */
  idle(): Promise<void>;
}

export function callDrain(): CallDrain {
  let running = 0;
  let stopping = false;
  let onIdle: (() => void) | undefined;
  return {
    middleware: async (ctx, next) => {
      running += 1;
      try {
        if (stopping) ctx.set('Connection', 'close');
        await next();
      } finally {
        running -= 1;
        if (running === 0) onIdle?.();
      }
    },
    stop() {
      stopping = true;
    },
    idle() {
      return running === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onIdle = resolve));
    },
  };
}
