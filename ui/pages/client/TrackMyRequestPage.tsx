import { Page } from '../../components/Page.js';

/** /track-my-request/{userId}: the client's requests and their status. (Placeholder.) */
export function TrackMyRequestPage() {
  return <Page title="Track My Request" note="Your requests, their control numbers and status." width="wide" />;
}
