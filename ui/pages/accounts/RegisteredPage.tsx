import { NoticePage } from '../../components/accounts/NoticePage.js';

/** /registered: end of the registration. */
export function RegisteredPage() {
  return <NoticePage title="Thank you for registering" note="Your account is verified. You can now log in." back="/login" />;
}
