import type { Group } from '../../../server/domain/catalog.js';
import { Page } from '../../components/Page.js';
import { ReportsView } from '../../components/reports/ReportsView.js';

/** The all-tests view: the four tables in the order of the database screen. */
const ALL_TESTS: readonly Group[] = ['microbio', 'chemMicrobial', 'chemElisa', 'molBio'];

/** /receive-release-database/{userId}: monthly positive/negative counts of every test. */
export function ReleaseDatabasePage() {
  return (
    <Page title="Database" note="Positive and negative results per test and month." width="wide">
      <ReportsView groups={ALL_TESTS} />
    </Page>
  );
}
