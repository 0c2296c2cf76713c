import { Page } from '../../components/Page.js';

/** /for-release/{userId}: completed requests awaiting release. (Placeholder.) */
export function ForReleasePage() {
  return <Page title="For Release" note="Requests with complete results, ready to be released to the client." width="wide" />;
}
