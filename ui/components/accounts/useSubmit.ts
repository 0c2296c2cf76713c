import { useState, type FormEvent } from 'react';

/** The steps of an account form's submit; `send` is the only server call. */
export interface SubmitSteps<T> {
  /** Checked before anything is sent: a message is shown in the form and nothing is sent. */
  check?: () => string | null;
  send: () => Promise<T>;
  /**
   * After a successful call: moves on (navigate's promise may be returned), or returns a message to
   * show when the answer is unusable.
   */
  done: (answer: T) => string | void | Promise<void>;
  /** The call was refused or the server unreachable: returns the message to show, or redirects. */
  failed: (error: unknown) => string | void;
}

export interface Submit {
  busy: boolean;
  /** What went wrong with the last submit ('' when nothing did), shown in the form as an alert. */
  problem: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * Runs `steps` on submit. The form is busy while the call runs, and a second submit meanwhile is
 * ignored; busy ends only when the user stays on the form (a failure or an unusable answer).
 */
export function useSubmit<T>(steps: SubmitSteps<T>): Submit {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  async function submit() {
    const invalid = steps.check?.();
    setProblem(invalid ?? '');
    if (invalid) return;
    setBusy(true);
    let answer: T;
    try {
      answer = await steps.send();
    } catch (error) {
      setBusy(false);
      setProblem(steps.failed(error) ?? '');
      return;
    }
    const unusable = steps.done(answer);
    if (typeof unusable === 'string') {
      setBusy(false);
      setProblem(unusable);
    }
  }

  return {
    busy,
    problem,
    onSubmit(event) {
      event.preventDefault();
      if (!busy) void submit();
    },
  };
}
