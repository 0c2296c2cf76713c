import type { ReactNode } from 'react';

export type Detail = readonly [label: string, value: ReactNode];

/** Read-only label/value pairs; an empty value shows as a dash. */
export function DetailList({ items, className }: { items: readonly Detail[]; className?: string }) {
  return (
    <dl className={`details${className ? ` ${className}` : ''}`}>
      {items.map(([label, value]) => (
        <div className="details-row" key={label}>
          <dt>{label}</dt>
          <dd className="break-anywhere">{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}
