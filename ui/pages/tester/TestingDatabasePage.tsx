import { DISCIPLINE_GROUPS } from '../../../server/domain/catalog.js';
import type { Discipline } from '../../../server/domain/roles.js';
import { Page } from '../../components/Page.js';
import { ReportsView } from '../../components/reports/ReportsView.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';

/** /testing-database-{discipline}/{userId}: the discipline's monthly positive/negative counts (chemistry: two tables). */
export function TestingDatabasePage({ discipline }: { discipline: Discipline }) {
  const info = DISCIPLINE_INFO[discipline];
  return (
    <Page
      title="Database"
      documentTitle={`Database (${info.name})`}
      note={`Positive and negative ${info.name.toLowerCase()} results per test and month.`}
      width="wide"
    >
      <ReportsView groups={DISCIPLINE_GROUPS[discipline]} />
    </Page>
  );
}
