import { Fragment, useCallback, useId, useState } from 'react';
import { ANALYTES } from '../../../server/domain/catalog.js';
import type { Specification } from '../../../server/domain/specifications.js';
import { getSpecificationHistory, listSpecifications } from '../../api/specifications.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { useNotify } from '../../components/Notice.js';
import { Page } from '../../components/Page.js';
import { ScrollingTable } from '../../components/ScrollingTable.js';
import { DecisionRulePanel } from '../../components/specifications/DecisionRulePanel.js';
import { analyteLabel, detectionText, limitText, scopeText, validityText } from '../../components/specifications/format.js';
import { SpecificationForm } from '../../components/specifications/SpecificationForm.js';
import { formatTimestampDay } from '../../components/requests/format.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';
import '../../styles/specifications.css';

const VIEW_DEFAULTS = { analyte: '' };
const KIND_WORDS = { qualitative: 'Qualitative', quantitative: 'Quantitative', count: 'Count' } as const;

/**
 * /specifications/{userId} (staff and admins): the specification in force per analyte and scope,
 * filtered by analyte; a form to add one or its next version (never overwriting one); each one's
 * versions; and the laboratory's decision rule.
 */
export function SpecificationsPage() {
  const id = useId();
  const notify = useNotify();
  const [view, changeView] = useListParams(VIEW_DEFAULTS);
  // Bumped after a save: the list loads again.
  const [version, setVersion] = useState(0);
  /** The open form: a new specification (null base) or the next version of one. */
  const [editing, setEditing] = useState<{ base: Specification | null } | null>(null);

  function saved(spec: Specification) {
    setEditing(null);
    setVersion((v) => v + 1);
    notify(`Specification saved: ${analyteLabel(spec.analyte)}, version ${spec.version}.`, 'success');
  }

  return (
    <Page title="Specifications" note="The limits every result is judged against, per analyte; versions are kept, never overwritten." width="wide">
      <div className="spec-toolbar">
        <div className="field">
          <label htmlFor={`${id}-analyte`}>Analyte</label>
          <select id={`${id}-analyte`} value={view.analyte} onChange={(e) => changeView({ analyte: e.target.value })}>
            <option value="">All analytes</option>
            {ANALYTES.map((a) => (
              <option key={a.code} value={a.code}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        {!editing && (
          <button type="button" className="button button-primary" onClick={() => setEditing({ base: null })}>
            Add a specification
          </button>
        )}
      </div>
      {editing && <SpecificationForm key={editing.base?.id ?? 'new'} base={editing.base} onSaved={saved} onCancel={() => setEditing(null)} />}
      <CurrentSpecifications key={version} analyte={view.analyte} onNewVersion={(spec) => setEditing({ base: spec })} />
      <DecisionRulePanel />
    </Page>
  );
}

/** The specifications in force (of one analyte, or all), each with its versions on asking. */
function CurrentSpecifications({ analyte, onNewVersion }: { analyte: string; onNewVersion: (spec: Specification) => void }) {
  const id = useId();
  const state = useLoad(useCallback((signal: AbortSignal) => listSpecifications({ analyte, current: true }, signal), [analyte]));
  const [history, setHistory] = useState<number | null>(null);
  return (
    <section aria-labelledby={`${id}-current`}>
      <h2 id={`${id}-current`}>In force</h2>
      <LoadStatus state={state} />
      {state.status === 'ready' &&
        (state.data.length === 0 ? (
          <p className="empty">No specification{analyte ? ` for ${analyteLabel(analyte)}` : ''} yet.</p>
        ) : (
          <ScrollingTable label="Specifications in force">
            <table className="spec-table">
              <thead>
                <tr>
                  <th scope="col">Analyte</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Limit</th>
                  <th scope="col">LOD / LOQ</th>
                  <th scope="col">Warning level</th>
                  <th scope="col">Source</th>
                  <th scope="col">In force</th>
                  <th scope="col">Version</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {state.data.map((spec) => {
                  const name = `${analyteLabel(spec.analyte)} (${scopeText(spec)})`;
                  const open = history === spec.id;
                  return (
                    <Fragment key={spec.id}>
                      <tr>
                        <th scope="row">{analyteLabel(spec.analyte)}</th>
                        <td>{scopeText(spec)}</td>
                        <td>{KIND_WORDS[spec.kind]}</td>
                        <td>{limitText(spec)}</td>
                        <td>{detectionText(spec)}</td>
                        <td>{spec.warningLevel ?? '—'}</td>
                        <td className="spec-source">{spec.source}</td>
                        <td>{validityText(spec)}</td>
                        <td>{spec.version}</td>
                        <td className="spec-actions">
                          <button type="button" className="button button-secondary button-small" aria-expanded={open} onClick={() => setHistory(open ? null : spec.id)}>
                            History<span className="visually-hidden"> of {name}</span>
                          </button>
                          <button type="button" className="button button-secondary button-small" onClick={() => onNewVersion(spec)}>
                            New version<span className="visually-hidden"> of {name}</span>
                          </button>
                        </td>
                      </tr>
                      {open && (
                        <tr>
                          <td colSpan={10}>
                            <SpecificationHistory spec={spec} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </ScrollingTable>
        ))}
    </section>
  );
}

/** Every version of one specification's analyte and scope, newest first, with who made it and when. */
function SpecificationHistory({ spec }: { spec: Specification }) {
  const state = useLoad(useCallback((signal: AbortSignal) => getSpecificationHistory(spec.id, signal), [spec.id]));
  const title = `Versions of ${analyteLabel(spec.analyte)} (${scopeText(spec)})`;
  if (state.status !== 'ready') return <LoadStatus state={state} />;
  return (
    <section className="spec-history" aria-label={title}>
      <h3>{title}</h3>
      <ol reversed>
        {state.data.map((v) => (
          <li key={v.id}>
            <strong>Version {v.version}</strong>: {limitText(v)}; {detectionText(v)}; {validityText(v)}; {v.source}. Added by {v.createdBy} on {formatTimestampDay(v.createdAt)}.
          </li>
        ))}
      </ol>
    </section>
  );
}
