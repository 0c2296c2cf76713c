import { TextField, type TextFieldProps } from '../TextField.js';

export type EmailFieldProps = Omit<TextFieldProps, 'label' | 'name' | 'type'>;

/** The 'Email' field of the account forms, without autocapitalisation or spell checking. */
export function EmailField(props: EmailFieldProps) {
  return <TextField label="Email" name="email" type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...props} />;
}
