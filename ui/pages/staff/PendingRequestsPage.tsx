import { Page } from '../../components/Page.js';

/** /pending-requests/{userId}: requests waiting for review. (Placeholder.) */
export function PendingRequestsPage() {
  return <Page title="Pending Requests" note="Requests waiting for review, oldest first." width="wide" />;
}
