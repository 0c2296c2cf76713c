import { Page } from '../../components/Page.js';

/** /submit-a-request/{userId}: the request form. (Placeholder.) */
export function SubmitRequestPage() {
  return <Page title="Submit a Request" note="Choose the tests for your samples and submit them for compliance check." width="wide" />;
}
