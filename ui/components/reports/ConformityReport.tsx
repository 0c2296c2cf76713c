import { useCallback, useId } from 'react';
import type { Group } from '../../../server/domain/catalog.js';
import {
  CONFORMITY_COLUMNS,
  conformityOf,
  conformityTotal,
  hasJudgedResults,
  type ConformityCounts,
  type NonConformityReport,
} from '../../../server/domain/conformityReport.js';
import { monthsOfYear, REPORT_TITLES } from '../../../server/domain/reportShape.js';
import { getNonConformities } from '../../api/reports.js';
import { useRetryableLoad, type Retryable } from '../../hooks/useLoad.js';
import { LoadStatus } from '../LoadStatus.js';
import { DecisionBadge } from '../specifications/DecisionBadge.js';
import { MonthlyCountTable } from './ReportTable.js';

/**
 * A count of one statement (DESIGN section 10, as DecisionBadge reads a decision): "does not conform"
 * a warning (amber, ⚠), "inconclusive" a warning of its own (amber outline, ?), "conforms" neutral;
 * the column header gives the word, so colour is never the only cue. A zero recedes.
 */
function Count({ n, kind }: { n: number; kind: keyof ConformityCounts }) {
  const className = n === 0 ? 'report-zero' : kind === 'doesNotConform' ? 'report-positive' : kind === 'inconclusive' ? 'report-inconclusive' : undefined;
  return <span className={className}>{n}</span>;
}

/**
 * One group's statements of conformity, laid out as its positive/negative table: a Does not conform,
 * an Inconclusive and a Conforms column under each test, and the month's Total.
 */
function ConformityTable({ group, report }: { group: Group; report: NonConformityReport }) {
  return (
    <MonthlyCountTable
      group={group}
      caption={`${REPORT_TITLES[group]} ${report.year}: statements of conformity`}
      className="conformity-table"
      months={monthsOfYear(report.year)}
      columns={CONFORMITY_COLUMNS}
      totalLabel="Total (does not conform / inconclusive / conforms)"
      counts={(a, month) => conformityOf(report, a, month)}
      total={(month) => conformityTotal(report, group, month)}
      cell={(kind, n) => <Count n={n} kind={kind} />}
    />
  );
}

/** The statements of conformity of `year`, with a second try (one call for every group the caller reads). */
export function useConformity(year: number): Retryable<NonConformityReport> {
  return useRetryableLoad(useCallback((signal: AbortSignal) => getNonConformities(year, signal), [year]));
}

/**
 * The database screens' "Statements of conformity" (issue 26): for the year shown, per test and month
 * of `groups`, how many results were judged not conforming, inconclusive and conforming against their
 * specification (`conformity`, from useConformity, fetched beside the monthly reports). Its own
 * loading line, a failure with Retry, and an empty message when nothing was judged that year.
 */
export function ConformitySection({ year, groups, conformity }: { year: number; groups: readonly Group[]; conformity: Retryable<NonConformityReport> }) {
  const id = useId();
  const { state, retry } = conformity;
  const judged = state.status === 'ready' ? groups.filter((g) => hasJudgedResults(state.data, g)) : [];
  return (
    <section className="report-section conformity-section" aria-labelledby={`${id}-heading`}>
      <div className="report-heading">
        <h2 id={`${id}-heading`}>Statements of conformity</h2>
      </div>
      <p className="conformity-legend">
        Results judged against their specification, per test and month of {year}:{' '}
        <DecisionBadge outcome="does_not_conform" />, <DecisionBadge outcome="inconclusive" /> or <DecisionBadge outcome="conforms" />.
      </p>
      <LoadStatus state={state} loading="Loading statements of conformity..." onRetry={retry} />
      {state.status === 'ready' && judged.length === 0 && <p className="empty">No results were judged against a specification in {year}.</p>}
      {state.status === 'ready' &&
        judged.length > 0 &&
        groups.map((group) =>
          judged.includes(group) ? (
            <div key={group} className="conformity-group">
              <h3>{REPORT_TITLES[group]}</h3>
              <ConformityTable group={group} report={state.data} />
            </div>
          ) : (
            <p key={group} className="conformity-none">
              {REPORT_TITLES[group]}: no results judged in {year}.
            </p>
          ),
        )}
    </section>
  );
}
