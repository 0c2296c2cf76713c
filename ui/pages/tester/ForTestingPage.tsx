import type { Discipline } from '../../../server/domain/roles.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { Page } from '../../components/Page.js';

/** /for-testing-{discipline}/{userId}: requests needing this discipline's tests. (Placeholder.) */
export function ForTestingPage({ discipline }: { discipline: Discipline }) {
  return (
    <Page
      title="For Testing"
      documentTitle={`For Testing (${DISCIPLINE_INFO[discipline].name})`}
      note={`Approved requests needing ${DISCIPLINE_INFO[discipline].name.toLowerCase()} tests.`}
      width="wide"
    />
  );
}
