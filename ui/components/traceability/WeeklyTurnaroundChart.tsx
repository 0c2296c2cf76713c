import { useId } from 'react';
import type { DisciplineWeeks, WeekCounts } from '../../../server/domain/turnaround.js';
import { countAxis } from '../reports/chartScale.js';

const WIDTH = 480;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 6, bottom: 30, left: 40 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

/** The stack, bottom up: late first, so a warning always starts at the axis. */
const PARTS = [
  { key: 'late', label: 'Late', className: 'turnaround-late' },
  { key: 'onTime', label: 'Released on time', className: 'turnaround-on-time' },
  { key: 'open', label: 'Open, not yet due', className: 'turnaround-open' },
] as const satisfies ReadonlyArray<{ key: keyof Omit<WeekCounts, 'week'>; label: string; className: string }>;

const weekName = (week: string) => new Date(`${week}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const total = (w: WeekCounts) => w.late + w.onTime + w.open;

/**
 * One discipline's requests per week of submission, stacked by how their turnaround went, drawn in
 * SVG (no chart library): described in text for screen readers, the legend names each part in words
 * (late also by its ⚠), and the same figures follow as a table.
 */
export function WeeklyTurnaroundChart({ discipline }: { discipline: DisciplineWeeks }) {
  const id = useId();
  const { weeks } = discipline;
  const axis = countAxis(Math.max(0, ...weeks.map(total)));
  const y = (count: number) => MARGIN.top + PLOT_H - (count / axis.max) * PLOT_H;
  const slot = PLOT_W / Math.max(1, weeks.length);
  const bar = Math.max(2, Math.min(24, slot * 0.7));
  // About six week labels whatever the range.
  const labelEvery = Math.ceil(weeks.length / 6);
  const title = `${discipline.label}: requests per week of submission`;
  const description = weeks.map((w) => `week of ${weekName(w.week)}: ${w.late} late, ${w.onTime} released on time, ${w.open} open`).join('; ');

  return (
    <section className="turnaround-chart" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{discipline.label}</h3>
      <figure>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMinYMid meet">
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {axis.ticks.map((t) => (
            <g key={t} className="chart-grid">
              <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(t)} y2={y(t)} />
              <text x={MARGIN.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                {t}
              </text>
            </g>
          ))}
          {weeks.map((w, i) => {
            const x = MARGIN.left + i * slot + (slot - bar) / 2;
            let base = 0;
            return (
              <g key={w.week}>
                {PARTS.map((part) => {
                  const count = w[part.key];
                  const rect = <rect key={part.key} className={part.className} x={x} y={y(base + count)} width={bar} height={y(base) - y(base + count)} />;
                  base += count;
                  return count > 0 ? rect : null;
                })}
                {i % labelEvery === 0 && (
                  <text className="chart-month" x={x + bar / 2} y={HEIGHT - 10} textAnchor="middle">
                    {weekName(w.week)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
        <figcaption className="chart-legend">
          {PARTS.map((part) => (
            <span key={part.key} className={`chart-key ${part.className}`}>
              {part.key === 'late' && <span aria-hidden="true">⚠ </span>}
              {part.label}
            </span>
          ))}
        </figcaption>
      </figure>
      <details className="turnaround-figures">
        <summary>{discipline.label}: the figures as a table</summary>
        <div className="table-wrap" role="group" aria-label={`${discipline.label} per week`} tabIndex={0}>
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Week of</th>
                {PARTS.map((part) => (
                  <th key={part.key} scope="col">
                    {part.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((w) => (
                <tr key={w.week}>
                  <th scope="row">{w.week}</th>
                  {PARTS.map((part) => (
                    <td key={part.key} className={part.key === 'late' && w.late > 0 ? 'late' : undefined}>
                      {w[part.key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
