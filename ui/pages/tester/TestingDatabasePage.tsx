import type { Discipline } from '../../../server/domain/roles.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { Page } from '../../components/Page.js';

/** /testing-database-{discipline}/{userId}: monthly positive/negative counts. (Placeholder.) */
export function TestingDatabasePage({ discipline }: { discipline: Discipline }) {
  return (
    <Page
      title="Database"
      documentTitle={`Database (${DISCIPLINE_INFO[discipline].name})`}
      note={`Positive and negative ${DISCIPLINE_INFO[discipline].name.toLowerCase()} results per test and month.`}
      width="wide"
    />
  );
}
