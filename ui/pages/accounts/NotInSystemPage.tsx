import { NoticePage } from '../../components/accounts/NoticePage.js';

/** /not-in-system: the e-mail given on /forget is unknown. */
export function NotInSystemPage() {
  return <NoticePage title="E-mail not found" note="This e-mail is not in the system." back="/forget" />;
}
