import { useState, type ReactNode } from 'react';
import type { CodeKind } from '../../api/accounts.js';
import { AccountForm, LINKS, type AccountFormProps } from './AccountForm.js';
import { CodeField } from './CodeField.js';
import { ResendCode } from './ResendCode.js';

export interface CodeFormProps<T> extends Omit<AccountFormProps<T>, 'send' | 'links' | 'footer' | 'children'> {
  /** The code field's label. */
  codeLabel: string;
  /** Sends the typed code. */
  send: (code: string) => Promise<T>;
  /** What kind of code 'Resend code' asks for, and for whom. */
  kind: CodeKind;
  identifier: string;
  /** Shown above the code field. */
  children?: ReactNode;
  /** Whether the code field takes the focus on arrival (not when a field above it must be filled first); default true. */
  focusCode?: boolean;
}

/** The e-mailed code screens' form: the code, the submit button, 'Resend code' and Back To Log In. */
export function CodeForm<T>({ codeLabel, send, kind, identifier, children, focusCode = true, ...form }: CodeFormProps<T>) {
  const [code, setCode] = useState('');
  return (
    <AccountForm {...form} send={() => send(code)} links={[LINKS.logIn]} footer={<ResendCode kind={kind} identifier={identifier} />}>
      {children}
      <CodeField label={codeLabel} value={code} onValueChange={setCode} autoFocus={focusCode} />
    </AccountForm>
  );
}
