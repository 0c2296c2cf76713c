import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { auditCsvUrl, listAudit, type AuditQuery } from '../../api/traceability.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useLoad } from '../../hooks/useLoad.js';
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

/** /audit-trail/{userId}: the audit log for staff and admins, filtered, paged, exportable as CSV. Read-only. */
export function AuditTrailPage() {
  const { userId = '' } = useParams();
  const id = useId();
  // The filters in force live in the address (bookmarkable, restored by back/forward); the form edits a draft of them.
  const [view, changeView] = useListParams(NO_FILTERS);
  const query = useMemo(() => filled(view), [view]);
  const [draft, setDraft] = useState<Record<string, string>>(view);
  const [shownView, setShownView] = useState(view);
  const [offset, setOffset] = useState(0);
  if (shownView !== view) {
    // Back, forward or a link changed the filters: the form shows them, from the first page.
    setShownView(view);
    setDraft(view);
    setOffset(0);
  }
  const state = useLoad(useCallback((signal: AbortSignal) => listAudit(query, PAGE_SIZE, offset, signal), [query, offset]));

  function apply(event: FormEvent) {
    event.preventDefault();
    changeView(Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.trim()])));
    setOffset(0);
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
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <>
          <p role="status">{state.data.total === 0 ? 'No entries match.' : `${state.data.total} entries`}</p>
          {state.data.rows.length > 0 && (
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
                  {state.data.rows.map((r) => (
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
          <div className="pager">
            <button type="button" className="button button-secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Newer
            </button>
            <button type="button" className="button button-secondary" disabled={offset + PAGE_SIZE >= state.data.total} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Older
            </button>
          </div>
        </>
      )}
    </Page>
  );
}
