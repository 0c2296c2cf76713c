import { Link, useNavigate, useParams } from 'react-router-dom';
import { FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { familiesOf } from '../../../server/domain/requestShape.js';
import { Page } from '../../components/Page.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { useDeskQueue } from '../../components/queue/useDeskQueue.js';
import { formatDay, formatTimestampDay, purposeText } from '../../components/requests/format.js';
import '../../styles/staff.css';
import '../../styles/queue.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

/**
 * /pending-requests/{userId}: requests waiting for review, a page at a time (oldest first unless
 * sorted otherwise), searchable by control number, company or lot, filtered by discipline, exported
 * as CSV; a row opens its details.
 */
export function PendingRequestsPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const { queue, controls } = useDeskQueue('pending', 'company or lot', 'pending requests');
  const details = (requestId: number) => `/request-details/${userId}/${requestId}`;

  return (
    <Page title="Pending Requests" note="Requests waiting for review, oldest first." width="wide">
      {controls}
      {queue.rows.length > 0 && (
        <ScrollingTable label="Pending requests">
          <table className="desk-table">
            <thead>
              <tr>
                <th scope="col">Client Classification</th>
                <th scope="col">Company</th>
                <th scope="col">Purpose</th>
                <th scope="col">Tests Selected</th>
                <th scope="col">Samples</th>
                <th scope="col">Submission Date</th>
                <th scope="col">Due Date</th>
              </tr>
            </thead>
            <tbody>
              {queue.rows.map((r) => {
                const submitted = formatTimestampDay(r.submissionDate);
                return (
                  // The whole row opens the request for the mouse; its link does for the keyboard.
                  <tr key={r.requestId} className="clickable-row" onClick={() => navigate(details(r.requestId))}>
                    <td className="break-anywhere">
                      <Link to={details(r.requestId)} onClick={(e) => e.stopPropagation()}>
                        {r.clientClassification}
                        <span className="visually-hidden">, {r.companyName}, submitted {submitted}</span>
                      </Link>
                    </td>
                    <td className="break-anywhere">{r.companyName}</td>
                    <td className="break-anywhere">{purposeText(r.purpose, null)}</td>
                    <td>{familiesOf(r.tests).map((f) => FAMILY_LABELS[f]).join(', ')}</td>
                    <td>{r.samples}</td>
                    <td>{submitted}</td>
                    <td>{formatDay(r.dueDate) ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      <QueueFooter queue={queue} empty="There are no pending requests as of the moment." what="pending requests" />
    </Page>
  );
}
