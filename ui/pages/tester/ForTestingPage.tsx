import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Group } from '../../../server/domain/catalog.js';
import { DISCIPLINE_GROUPS } from '../../../server/domain/catalog.js';
import { GROUP_WIRE } from '../../../server/domain/resultShape.js';
import { canOpenTestPanel, NO_PERMISSION_MESSAGE, type Discipline } from '../../../server/domain/roles.js';
import { getCombinedResult, listForTesting, saveGroupResults, type ForTestingRequest } from '../../api/results.js';
import { DragScrollList } from '../../components/DragScrollList.js';
import { Page } from '../../components/Page.js';
import { draftsFromResults, groupsToTest, payloadFor, type ResultDraft } from '../../components/testing/drafts.js';
import { SampleInfoPanel } from '../../components/testing/SampleInfoPanel.js';
import { TestEntryPanel } from '../../components/testing/TestEntryPanel.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { failureText, logFailure, useLoad, type Loaded } from '../../hooks/useLoad.js';
import { useSession } from '../../session.js';
import '../../styles/testing.css';

/** SPEC section 2, quoted exactly (trailing spaces included). */
const EMPTY_LIST: Record<Discipline, string> = {
  chem: 'There are no ongoing Chemistry tests. ',
  microbio: 'There are no ongoing Microbiology tests',
  molbio: 'There are no ongoing Molecular Biology tests. ',
};

/** SPEC section 8: how a failed group save is reported. */
const SAVE_FAILURE: Record<Group, string> = {
  chemElisa: 'Failed to save ELISA results: ',
  chemMicrobial: 'Failed to save chemical microbial results: ',
  microbio: 'Failed to save microbio results: ',
  molBio: 'Failed to save mol bio results: ',
};

const SAVED = 'Changes saved successfully!';
/** SPEC section 9: the status message near Save clears after 3 seconds. */
const STATUS_MS = 3000;

/**
 * /for-testing-{discipline}/{userId}: the requests needing this discipline's tests. Each row opens
 * its result entry panel or its sample information (one row at a time) and saves its results, each
 * group of each sample to its own call. A request's stored results prefill its panel: they are read
 * (getResult, this discipline's lists only) when the panel first opens, not for every open request
 * up front, which on a busy laboratory is megabytes the tester mostly never looks at.
 */
export function ForTestingPage({ discipline }: { discipline: Discipline }) {
  const info = DISCIPLINE_INFO[discipline];
  const { user } = useSession();
  const mayEnter = canOpenTestPanel(user?.userType, discipline);

  const state = useLoad(useCallback((signal: AbortSignal) => logFailure('Network response was not ok', signal, listForTesting(signal)), []));
  const requests = state.status === 'ready' ? state.data : [];

  /** Per request: its stored results as drafts, once its panel has been opened. */
  const [stored, setStored] = useState<Record<number, Loaded<Record<string, ResultDraft>>>>({});
  const [edits, setEdits] = useState<Record<string, ResultDraft>>({});
  const drafts = useMemo(() => {
    const prefilled = Object.values(stored).map((s) => (s.status === 'ready' ? s.data : {}));
    return Object.assign({}, ...prefilled, edits) as Record<string, ResultDraft>;
  }, [stored, edits]);
  const [openTests, setOpenTests] = useState<number | null>(null);
  const [openInfo, setOpenInfo] = useState<number | null>(null);
  const [saving, setSaving] = useState<number | null>(null);
  const [statusText, setStatusText] = useState<Record<number, string>>({});

  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  function toggleTests(requestId: number) {
    if (openTests === requestId) return setOpenTests(null);
    setOpenTests(requestId);
    const status = stored[requestId]?.status;
    if (status === 'ready' || status === 'loading') return;
    setStored((s) => ({ ...s, [requestId]: { status: 'loading' } }));
    getCombinedResult(requestId).then(
      (combined) => {
        const data = draftsFromResults(DISCIPLINE_GROUPS[discipline].map((g) => combined[GROUP_WIRE[g].list]));
        setStored((s) => ({ ...s, [requestId]: { status: 'ready', data } }));
      },
      (error: unknown) => {
        console.error(`Could not load the results of request ${requestId}`, error);
        // Opening the panel again tries again.
        setStored((s) => ({ ...s, [requestId]: { status: 'error', error } }));
      },
    );
  }

  function showStatus(requestId: number, text: string) {
    setStatusText((s) => ({ ...s, [requestId]: text }));
    clearTimeout(timers.current.get(requestId));
    timers.current.set(
      requestId,
      setTimeout(() => setStatusText(({ [requestId]: _done, ...rest }) => rest), STATUS_MS),
    );
  }

  async function save(request: ForTestingRequest) {
    if (request.samples.length === 0) {
      window.alert('No sample ID found for this request');
      showStatus(request.requestId, 'No sample ID found for this request');
      return;
    }
    setSaving(request.requestId);
    let outcome = SAVED;
    try {
      for (const { group, analytes } of groupsToTest(request, discipline)) {
        for (const sample of request.samples) {
          const payload = payloadFor(analytes, sample.sampleId, drafts);
          if (!payload) continue;
          try {
            await saveGroupResults(group, sample.sampleId, payload);
          } catch (error) {
            throw new Error(SAVE_FAILURE[group] + failureText(error), { cause: error });
          }
        }
      }
    } catch (error) {
      outcome = `Error saving changes: ${(error as Error).message}`;
    } finally {
      setSaving(null);
    }
    window.alert(outcome);
    showStatus(request.requestId, outcome);
  }

  return (
    <Page title="For Testing" documentTitle={`For Testing (${info.name})`} note="Drag the sides of the container to scroll!" width="wide">
      <DragScrollList
        className="testing-list"
        state={state}
        rows={requests.length}
        empty={EMPTY_LIST[discipline]}
      >
        <table className="testing-table">
          <thead>
            <tr>
              <th scope="col">Control Number</th>
              <th scope="col">tests</th>
              <th scope="col">Sample Information</th>
              <th scope="col">Save Changes</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => {
              const name = r.controlNumber ?? `request ${r.requestId}`;
              const testsOpen = openTests === r.requestId;
              const infoOpen = openInfo === r.requestId;
              const testsId = `tests-${r.requestId}`;
              const infoId = `samples-${r.requestId}`;
              const results = stored[r.requestId];
              return (
                <Fragment key={r.requestId}>
                  <tr>
                    <th scope="row">{name}</th>
                    <td>
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
                    <td>
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
                    </td>
                    <td>
                      <div className="save-cell">
                        <button
                          type="button"
                          className="button button-primary button-small"
                          disabled={!mayEnter || saving !== null}
                          onClick={() => void save(r)}
                        >
                          {saving === r.requestId ? 'Saving...' : 'Save'}
                          <span className="visually-hidden"> changes of {name}</span>
                        </button>
                        <span className="save-status" role="status">
                          {statusText[r.requestId] ?? ''}
                        </span>
                      </div>
                    </td>
                  </tr>
                  {infoOpen && (
                    <tr className="panel-row">
                      <td colSpan={4} id={infoId}>
                        <h2 className="panel-title">Sample Information of {name}</h2>
                        <SampleInfoPanel samples={r.samples} />
                      </td>
                    </tr>
                  )}
                  {testsOpen && (
                    <tr className="panel-row">
                      <td colSpan={4} id={testsId}>
                        <h2 className="panel-title">
                          {info.name} Tests of {name}
                        </h2>
                        {results?.status === 'ready' ? (
                          <TestEntryPanel
                            request={r}
                            discipline={discipline}
                            drafts={drafts}
                            onChange={(key, draft) => setEdits((e) => ({ ...e, [key]: draft }))}
                          />
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
      </DragScrollList>
    </Page>
  );
}
