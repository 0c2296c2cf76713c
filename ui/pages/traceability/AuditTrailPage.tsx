import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { auditCsvUrl, auditPath, type AuditQuery, type AuditRecord } from '../../api/traceability.js';
import { Page } from '../../components/Page.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useQueue } from '../../hooks/useQueue.js';
import '../../styles/traceability.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

const PAGE_SIZE = 50;
const FIELDS: Array<{ key: keyof AuditQuery & string; label: string; type: string; placeholder?: string }> = [
  { key: 'user', label: 'User', type: 'text', placeholder: 'username, e-mail or id' },
  { key: 'request', label: 'Request', type: 'text', placeholder: 'id or control number' },
  { key: 'action', label: 'Action', type: 'text', placeholder: 'e.g. request.approve' },
  { key: 'since', label: 'From', type: 'date' },
  { key: 'until', label: 'To', type: 'date' },
];

const NO_FILTERS = { user: '', request: '', action: '', since: '', until: '' };

/** Only the filters that are filled in. */
const filled = (q: Record<string, string>): AuditQuery => Object.fromEntries(Object.entries(q).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()]));

/**
 * /audit-trail/{userId}: the audit log for staff and admins, filtered, a keyset page at a time ('Show
 * more'), exportable as CSV. Read-only. The filters live in the address.
 */
export function AuditTrailPage() {
  const { userId = '' } = useParams();
  const id = useId();
  // The filters in force live in the address (bookmarkable, restored by back/forward); the form edits a draft of them.
  const [view, changeView] = useListParams(NO_FILTERS);
  const query = useMemo(() => filled(view), [view]);
  const [draft, setDraft] = useState<Record<string, string>>(view);
  const [shownView, setShownView] = useState(view);
  if (shownView !== view) {
    // Back, forward or a link changed the filters: the form shows them.
    setShownView(view);
    setDraft(view);
  }
  const trail = useQueue<AuditRecord>(auditPath(query, PAGE_SIZE));

  function apply(event: FormEvent) {
    event.preventDefault();
    changeView(Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.trim()])));
  }

  return (
    <Page title="Audit Trail" note="Every recorded change, newest first. Entries are never changed or deleted." width="wide">
      <form className="form filters" onSubmit={apply} aria-label="Filters">
        {FIELDS.map((f) => (
          <div className="field" key={f.key}>
            <label htmlFor={`${id}-${f.key}`}>{f.label}</label>
            <input id={`${id}-${f.key}`} type={f.type} placeholder={f.placeholder} value={draft[f.key]} onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })} />
          </div>
        ))}
        <div className="actions">
          <button type="submit" className="button button-primary">
            Filter
          </button>
          <a className="button button-secondary" href={auditCsvUrl(query)} download="audit-trail.csv">
            Download CSV
          </a>
        </div>
      </form>
      {trail.state.status === 'ready' && trail.total !== null && trail.rows.length > 0 && (
        <p role="status">
          Showing {trail.rows.length.toLocaleString('en-US')} of {trail.total.toLocaleString('en-US')} entries
        </p>
      )}
      {trail.rows.length > 0 && (
        <ScrollingTable label="Audit entries">
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Action</th>
                <th>Request</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {trail.rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <time dateTime={r.at}>{r.at.replace('T', ' ').slice(0, 19)}</time>
                  </td>
                  <td>{r.actorName ? `${r.actorName} (${r.actorRole})` : 'system'}</td>
                  <td>{r.action}</td>
                  <td>{r.requestId !== null && <Link to={`/request-timeline/${userId}/${r.requestId}`}>{r.controlNumber ?? `#${r.requestId}`}</Link>}</td>
                  <td className="break-anywhere">{r.details === null ? '' : JSON.stringify(r.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      <QueueFooter queue={trail} empty="No entries match." what="audit entries" />
    </Page>
  );
}
