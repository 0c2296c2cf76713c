import { useState, type FormEvent } from 'react';

/** The steps of an account form's submit; `send` is the only server call. */
export interface SubmitSteps<T> {
  /** Checked before anything is sent: a message is alerted and nothing is sent. */
  check?: () => string | null;
  send: () => Promise<T>;
  /**
   * After a successful call: moves on (navigate's promise may be returned), or returns a message to
   * alert when the answer is unusable.
   */
  done: (answer: T) => string | void | Promise<void>;
  /** The call was refused or the server unreachable: tells the user (alert or redirect). */
  failed: (error: unknown) => void;
}

export interface Submit {
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * Runs `steps` on submit. The form is busy while the call runs, and a second submit meanwhile is
 * ignored; busy ends only when the user stays on the form (a failure or an unusable answer).
 */
export function useSubmit<T>(steps: SubmitSteps<T>): Submit {
  const [busy, setBusy] = useState(false);

  async function submit() {
    const problem = steps.check?.();
    if (problem) {
      alert(problem);
      return;
    }
    setBusy(true);
    let answer: T;
    try {
      answer = await steps.send();
    } catch (error) {
      setBusy(false);
      steps.failed(error);
      return;
    }
    const unusable = steps.done(answer);
    if (typeof unusable === 'string') {
      setBusy(false);
      alert(unusable);
    }
  }

  return {
    busy,
    onSubmit(event) {
      event.preventDefault();
      if (!busy) void submit();
    },
  };
}
