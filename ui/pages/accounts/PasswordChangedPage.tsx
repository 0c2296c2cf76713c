import { NoticePage } from '../../components/accounts/NoticePage.js';

/** /password-changed: success message of the password reset. */
export function PasswordChangedPage() {
  return <NoticePage title="Password Changed" note="Your password has been changed. You can now log in with it." back="/login" />;
}
