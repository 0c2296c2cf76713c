import { Page } from '../../components/Page.js';

/** /receive-release-database/{userId}: monthly positive/negative counts of all tests. (Placeholder.) */
export function ReleaseDatabasePage() {
  return <Page title="Database" note="Positive and negative results per test and month." width="wide" />;
}
