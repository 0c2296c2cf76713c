import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DISCIPLINE_GROUPS, findAnalyte, type Group } from '../../../server/domain/catalog.js';
import { WORK_STATES, type QueueSort, type WorkState } from '../../../server/domain/queue.js';
import { GROUP_WIRE } from '../../../server/domain/resultShape.js';
import { canOpenTestPanel, NO_PERMISSION_MESSAGE, type Discipline } from '../../../server/domain/roles.js';
import { queuePath, saveRequestResults, type QueueRow } from '../../api/queues.js';
import { getCombinedResult, resultsTemplatePath } from '../../api/results.js';
import { getRequestSpecifications } from '../../api/specifications.js';
import type { DecisionRule, Specification } from '../../../server/domain/specifications.js';
import { useNotify } from '../../components/Notice.js';
import { Page } from '../../components/Page.js';
import { CsvExportLink } from '../../components/queue/CsvExportLink.js';
import { QueueControls } from '../../components/queue/QueueControls.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { formatDay, formatTimestampDay } from '../../components/requests/format.js';
import { draftKey, draftsFromAnalyses, draftsFromResults, entriesOf, unsavedKeys, type ResultDraft } from '../../components/testing/drafts.js';
import { hasLocalDrafts, readLocalDrafts, writeLocalDrafts } from '../../components/testing/localDrafts.js';
import { SampleInfoPanel } from '../../components/testing/SampleInfoPanel.js';
import { TestEntryPanel } from '../../components/testing/TestEntryPanel.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { useDragScroll } from '../../hooks/useDragScroll.js';
import { failureText, type Loaded } from '../../hooks/useLoad.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useQueue } from '../../hooks/useQueue.js';
import { useUnsavedGuard } from '../../hooks/useUnsavedGuard.js';
import { homeOf, useSession } from '../../session.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import '../../styles/testing.css';
import '../../styles/queue.css';
import { ReceiptNote } from '../../components/traceability/ReceiptNote.js';

/** SPEC section 2, quoted exactly (trailing spaces included). */
const EMPTY_LIST: Record<Discipline, string> = {
  chem: 'There are no ongoing Chemistry tests. ',
  microbio: 'There are no ongoing Microbiology tests',
  molbio: 'There are no ongoing Molecular Biology tests. ',
};

/** SPEC section 8: how a failed save is reported (named after the group of the first entry sent). */
const SAVE_FAILURE: Record<Group, string> = {
  chemElisa: 'Failed to save ELISA results: ',
  chemMicrobial: 'Failed to save chemical microbial results: ',
  microbio: 'Failed to save microbio results: ',
  molBio: 'Failed to save mol bio results: ',
};

const SAVED = 'Changes saved successfully!';
const NOTHING_TO_SAVE = 'Nothing to save';
/** SPEC section 9: the status message near Save clears after 3 seconds. */
const STATUS_MS = 3000;

const WORK_CHOICES: ReadonlyArray<{ value: WorkState; label: string }> = [
  { value: 'outstanding', label: 'Outstanding' },
  { value: 'finished', label: 'Finished' },
  { value: 'all', label: 'All' },
];

type Drafts = Record<string, ResultDraft>;

/** The specifications of one request's rows (by draft key) and the rule that judges them. */
interface Judging {
  specs: ReadonlyMap<string, Specification>;
  rule: DecisionRule;
}

/** What applies to a request's analyses; without it (not answered) the bench works as before, undecided. */
async function judgingOf(requestId: number): Promise<Judging | null> {
  try {
    const { rule, items } = await getRequestSpecifications(requestId);
    return { rule, specs: new Map(items.flatMap((i) => (i.specification ? [[draftKey(i.sampleId, i.testCode), i.specification] as const] : []))) };
  } catch (error) {
    console.error(`Could not load the specifications of request ${requestId}`, error);
    return null;
  }
}

const DAY_MS = 86_400_000;
const ageOf = (iso: string) => {
  const days = Math.floor((Date.now() - new Date(iso).getTime()) / DAY_MS);
  return days <= 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`;
};

/**
 * /for-testing-{discipline}/{userId}: the requests with this discipline's work outstanding, a page
 * at a time (searchable by control number, oldest or most urgent first, finished ones on asking).
 * Each row opens its result entry panel or its sample information; Save (in the row, as SPEC has it,
 * and sticky at the bottom of the open panel) writes the whole request's entries in one call and one
 * transaction. Unsaved entries are marked, kept in localStorage until saved, and leaving asks first.
 */
const VIEW_DEFAULTS = { q: '', sort: 'oldest', state: 'outstanding' };

export function ForTestingPage({ discipline }: { discipline: Discipline }) {
  const info = DISCIPLINE_INFO[discipline];
  const { user } = useSession();
  const userId = user?.userId ?? '';
  const mayEnter = canOpenTestPanel(user?.userType, discipline);
  const notify = useNotify();

  // The view (search, sort, shown work) lives in the address: bookmarkable, restored by back/forward.
  const [view, changeView] = useListParams(VIEW_DEFAULTS);
  const sort: QueueSort = view.sort === 'urgent' ? 'urgent' : 'oldest';
  const workState = (WORK_STATES.includes(view.state as WorkState) ? view.state : 'outstanding') as WorkState;
  const setQ = useCallback((q: string) => changeView({ q }), [changeView]);
  const listParams = { q: view.q || null, sort, state: workState === 'outstanding' ? null : workState };
  const queue = useQueue(queuePath('for-testing', listParams));
  const dragRef = useDragScroll<HTMLDivElement>();

  /** Per request: its stored results as drafts, once its panel has been opened. */
  const [stored, setStored] = useState<Record<number, Loaded<Drafts>>>({});
  /** Per request: the specifications its rows are judged against, once its panel has been opened. */
  const [judging, setJudging] = useState<Record<number, Judging | null>>({});
  /** Per request: what the tester typed (kept locally until saved). */
  const [edits, setEdits] = useState<Record<number, Drafts>>({});
  const [openTests, setOpenTests] = useState<number | null>(null);
  const [openInfo, setOpenInfo] = useState<number | null>(null);
  const [saving, setSaving] = useState<number | null>(null);
  const [statusText, setStatusText] = useState<Record<number, string>>({});

  const storedOf = (id: number): Drafts => (stored[id]?.status === 'ready' ? (stored[id] as { data: Drafts }).data : {});
  const unsavedOf = (id: number) => new Set(stored[id]?.status === 'ready' ? unsavedKeys(edits[id] ?? {}, storedOf(id)) : []);
  const anyUnsaved = useMemo(
    () => Object.entries(edits).some(([id, e]) => stored[Number(id)]?.status === 'ready' && unsavedKeys(e, (stored[Number(id)] as { data: Drafts }).data).length > 0),
    [edits, stored],
  );
  const leaveQuestion = useUnsavedGuard(anyUnsaved);

  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  async function loadStored(requestId: number): Promise<{ data: Drafts; judged: Judging | null }> {
    setStored((s) => ({ ...s, [requestId]: { status: 'loading' } }));
    setEdits((e) => (e[requestId] ? e : { ...e, [requestId]: readLocalDrafts(userId, requestId) }));
    try {
      const [combined, judged] = await Promise.all([getCombinedResult(requestId), judgingOf(requestId)]);
      setJudging((j) => ({ ...j, [requestId]: judged }));
      const data = draftsFromResults(DISCIPLINE_GROUPS[discipline].map((g) => combined[GROUP_WIRE[g].list]));
      setStored((s) => ({ ...s, [requestId]: { status: 'ready', data } }));
      return { data, judged };
    } catch (error) {
      console.error(`Could not load the results of request ${requestId}`, error);
      // Opening the panel again tries again.
      setStored((s) => ({ ...s, [requestId]: { status: 'error', error } }));
      throw error;
    }
  }

  function toggleTests(requestId: number) {
    if (openTests === requestId) return setOpenTests(null);
    setOpenTests(requestId);
    const status = stored[requestId]?.status;
    if (status !== 'ready' && status !== 'loading') loadStored(requestId).catch(() => undefined);
  }

  function edit(requestId: number, key: string, draft: ResultDraft) {
    setEdits((e) => {
      const next = { ...e[requestId], [key]: draft };
      writeLocalDrafts(userId, requestId, Object.fromEntries(unsavedKeys(next, storedOf(requestId)).map((k) => [k, next[k]])));
      return { ...e, [requestId]: next };
    });
  }

  function showStatus(requestId: number, text: string) {
    setStatusText((s) => ({ ...s, [requestId]: text }));
    clearTimeout(timers.current.get(requestId));
    timers.current.set(
      requestId,
      setTimeout(() => setStatusText(({ [requestId]: _done, ...rest }) => rest), STATUS_MS),
    );
  }

  async function save(request: QueueRow) {
    const id = request.requestId;
    if ((request.sampleList ?? []).length === 0) {
      notify('No sample ID found for this request', 'error');
      showStatus(id, 'No sample ID found for this request');
      return;
    }
    setSaving(id);
    let outcome: string;
    let failed = false;
    try {
      const { data: before, judged } = stored[id]?.status === 'ready' ? { data: storedOf(id), judged: judging[id] } : await loadStored(id);
      const local = edits[id] ?? readLocalDrafts(userId, id);
      const entries = entriesOf(local, before, (key) => judged?.specs.get(key)?.unit ?? null);
      if (entries.length === 0) {
        outcome = NOTHING_TO_SAVE;
      } else {
        try {
          const saved = await saveRequestResults(id, entries);
          const data = draftsFromAnalyses(saved.analyses);
          setStored((s) => ({ ...s, [id]: { status: 'ready', data } }));
          setEdits((e) => ({ ...e, [id]: {} }));
          writeLocalDrafts(userId, id, {});
          const complete = saved.analyses.filter((a) => a.value !== null && a.remark !== null).length;
          queue.update(id, { ...request, requestStatus: saved.requestStatus, progress: { entered: complete, total: saved.analyses.length } });
          outcome = saved.changed > 0 ? SAVED : NOTHING_TO_SAVE;
        } catch (error) {
          const group = findAnalyte(entries[0].testCode)?.group ?? DISCIPLINE_GROUPS[discipline][0];
          throw new Error(SAVE_FAILURE[group] + failureText(error), { cause: error });
        }
      }
    } catch (error) {
      outcome = `Error saving changes: ${(error as Error).message}`;
      failed = true;
    } finally {
      setSaving(null);
    }
    // The row's status line clears after 3 seconds (SPEC section 9); a failure also stays at the top until dismissed.
    if (failed) notify(outcome, 'error');
    showStatus(id, outcome);
  }

  return (
    <Page
      title="For Testing"
      documentTitle={`For Testing (${info.name})`}
      // On a phone the list is a column of cards that never scrolls sideways: no dragging to mention.
      note={<span className="drag-hint">Drag the sides of the container to scroll!</span>}
      width="wide"
    >
      <BackArrow to={homeOf(user)} label={`${info.name} Testing Portal`} />
      <QueueControls
        searchWhat="control number"
        query={view.q}
        onSearch={setQ}
        sort={sort}
        sorts={['oldest', 'urgent']}
        onSort={(s) => changeView({ sort: s })}
        filter={{ label: 'Show', value: workState, choices: WORK_CHOICES, onChange: (state) => changeView({ state }) }}
      >
        <CsvExportLink path="/requests/queue/for-testing" params={listParams} what={`${info.name} requests`} />
        {/* The analyses shown, as a file to fill in and import with `labctl results import`. */}
        <a className="button button-secondary button-small" href={resultsTemplatePath(discipline, workState)} download>
          Download results template<span className="visually-hidden"> ({info.name}, CSV)</span>
        </a>
      </QueueControls>
      <div ref={dragRef} className="table-wrap drag-scroll testing-list">
        {/* Explicit roles: on a phone the rows are laid out as cards (CSS display), which would
            otherwise drop the table's semantics. */}
        <table className="testing-table" role="table">
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">Control Number</th>
              <th scope="col" role="columnheader">tests</th>
              <th scope="col" role="columnheader">Sample Information</th>
              <th scope="col" role="columnheader">Save Changes</th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {queue.rows.map((r) => {
              const name = r.controlNumber ?? `request ${r.requestId}`;
              const testsOpen = openTests === r.requestId;
              const infoOpen = openInfo === r.requestId;
              const testsId = `tests-${r.requestId}`;
              const infoId = `samples-${r.requestId}`;
              const results = stored[r.requestId];
              const unsaved = unsavedOf(r.requestId);
              const hasDrafts = unsaved.size > 0 || (results?.status !== 'ready' && hasLocalDrafts(userId, r.requestId));
              const saveButton = (where: string) => (
                <button
                  type="button"
                  className="button button-primary button-small"
                  disabled={!mayEnter || saving !== null}
                  onClick={() => void save(r)}
                >
                  {saving === r.requestId ? 'Saving...' : 'Save'}
                  <span className="visually-hidden">
                    {' '}
                    {where} of {name}
                  </span>
                </button>
              );
              return (
                <Fragment key={r.requestId}>
                  <tr className={hasDrafts ? 'row-unsaved' : undefined} role="row">
                    <th scope="row" role="rowheader">{name}</th>
                    <td role="cell">
                      <p className="queue-meta">
                        {r.progress && (
                          <span className={r.progress.entered === r.progress.total ? 'meta-done' : undefined}>
                            {r.progress.entered}/{r.progress.total} entered
                          </span>
                        )}
                        <span>
                          {r.samples} sample{r.samples === 1 ? '' : 's'}
                        </span>
                        <span>Approved {formatTimestampDay(r.waitingSince)} ({ageOf(r.waitingSince)})</span>
                        {r.dueDate && <span>Due {formatDay(r.dueDate)}</span>}
                        {hasDrafts && <span className="analyte-flag flag-unsaved">Unsaved entries</span>}
                      </p>
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        disabled={!mayEnter}
                        title={mayEnter ? undefined : NO_PERMISSION_MESSAGE}
                        aria-expanded={testsOpen}
                        aria-controls={testsOpen ? testsId : undefined}
                        onClick={() => toggleTests(r.requestId)}
                      >
                        Show {info.name} Tests
                        <span className="visually-hidden"> of {name}</span>
                      </button>
                    </td>
                    <td role="cell">
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        aria-expanded={infoOpen}
                        aria-controls={infoOpen ? infoId : undefined}
                        onClick={() => setOpenInfo(infoOpen ? null : r.requestId)}
                      >
                        View Sample Information
                        <span className="visually-hidden"> of {name}</span>
                      </button>
                      {r.receipt?.flagged && <p className="receipt-warning">⚠ Sample reception flagged</p>}
                    </td>
                    <td role="cell">
                      <div className="save-cell">
                        {saveButton('changes')}
                        <span className="save-status" role="status">
                          {statusText[r.requestId] ?? ''}
                        </span>
                      </div>
                    </td>
                  </tr>
                  {infoOpen && (
                    <tr className="panel-row" role="row">
                      <td colSpan={4} id={infoId} role="cell">
                        <h2 className="panel-title">Sample Information of {name}</h2>
                        <SampleInfoPanel samples={r.sampleList ?? []} />
                        {r.receipt && <ReceiptNote receipt={r.receipt} />}
                      </td>
                    </tr>
                  )}
                  {testsOpen && (
                    <tr className="panel-row" role="row">
                      <td colSpan={4} id={testsId} role="cell">
                        <h2 className="panel-title">
                          {info.name} Tests of {name}
                        </h2>
                        {results?.status === 'ready' ? (
                          <>
                            <TestEntryPanel
                              request={{ tests: r.tests, samples: r.sampleList ?? [] }}
                              discipline={discipline}
                              drafts={{ ...results.data, ...edits[r.requestId] }}
                              unsaved={unsaved}
                              onChange={(key, draft) => edit(r.requestId, key, draft)}
                              specs={judging[r.requestId]?.specs}
                              rule={judging[r.requestId]?.rule}
                            />
                            <div className="panel-save">
                              {saveButton('all results')}
                              <span className="save-status" aria-hidden="true">
                                {statusText[r.requestId] ?? (unsaved.size > 0 ? `${unsaved.size} unsaved` : '')}
                              </span>
                            </div>
                          </>
                        ) : results?.status === 'error' ? (
                          <p role="alert">The stored results could not be loaded: {failureText(results.error)}</p>
                        ) : (
                          <p role="status">Loading...</p>
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
        <QueueFooter queue={queue} empty={EMPTY_LIST[discipline]} what="list of requests for testing" />
      </div>
      {leaveQuestion}
    </Page>
  );
}
