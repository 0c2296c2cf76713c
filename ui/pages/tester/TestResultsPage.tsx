import type { Discipline } from '../../../server/domain/roles.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { Page } from '../../components/Page.js';

/** /test-results-{discipline}/{userId}: results for release and released. (Placeholder.) */
export function TestResultsPage({ discipline }: { discipline: Discipline }) {
  return (
    <Page
      title="Test Results"
      documentTitle={`Test Results (${DISCIPLINE_INFO[discipline].name})`}
      note={`${DISCIPLINE_INFO[discipline].name} results waiting for release and already released.`}
      width="wide"
    />
  );
}
