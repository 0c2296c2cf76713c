import { useId } from 'react';
import type { PosNeg } from '../../../server/domain/reportShape.js';
import { countAxis } from './chartScale.js';

export interface MonthlyChartProps {
  /** Names the chart, e.g. 'Microbiology: positive and negative results per month, 2026'. */
  title: string;
  /** Months 'YYYY-MM' in order, with their counts. */
  data: readonly (PosNeg & { month: string })[];
}

const WIDTH = 480;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 6, bottom: 30, left: 40 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

const monthName = (month: string, style: 'short' | 'long') =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: style, timeZone: 'UTC' });

/**
 * Positive and negative bars per month, hand-drawn in SVG (no chart library). The figure is
 * described in text for screen readers; the legend names the colours, which are also not the only
 * cue (positives are always the left bar).
 */
export function MonthlyChart({ title, data }: MonthlyChartProps) {
  const id = useId();
  const axis = countAxis(Math.max(0, ...data.flatMap((d) => [d.positive, d.negative])));
  const y = (count: number) => MARGIN.top + PLOT_H - (count / axis.max) * PLOT_H;
  const slot = PLOT_W / Math.max(1, data.length);
  const bar = Math.min(16, slot * 0.36);
  const description = data.map((d) => `${monthName(d.month, 'long')}: ${d.positive} positive, ${d.negative} negative`).join('; ');

  return (
    <figure className="monthly-chart">
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
        {data.map((d, i) => {
          const x = MARGIN.left + i * slot + slot / 2;
          return (
            <g key={d.month}>
              <rect className="chart-bar-positive" x={x - bar - 1} y={y(d.positive)} width={bar} height={y(0) - y(d.positive)} />
              <rect className="chart-bar-negative" x={x + 1} y={y(d.negative)} width={bar} height={y(0) - y(d.negative)} />
              <text className="chart-month" x={x} y={HEIGHT - 10} textAnchor="middle">
                {monthName(d.month, 'short')}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend">
        <span className="chart-key chart-key-positive">Positive</span>
        <span className="chart-key chart-key-negative">Negative</span>
      </figcaption>
    </figure>
  );
}
