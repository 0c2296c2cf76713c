/** How a specification reads on the screens: its limit, its scope and its dates, in words. */
import { findAnalyte, speciesLabel, type Purpose } from '../../../server/domain/catalog.js';
import type { Specification } from '../../../server/domain/specifications.js';
import { formatDay, purposeText } from '../requests/format.js';

const withUnit = (value: number, unit: string | null) => (unit ? `${value} ${unit}` : String(value));

/** The limit as read: "≤ 100 µg/kg", "10–100 µg/kg", "n=5, c=2, m=10, M=100 cfu/g", "not detected". */
export function limitText(spec: Specification): string {
  if (spec.kind === 'qualitative') return 'not detected';
  const { lowerLimit: low, upperLimit: high, unit } = spec;
  if (spec.kind === 'count' && spec.m !== null) {
    const plan = [spec.n !== null && `n=${spec.n}`, spec.c !== null && `c=${spec.c}`, `m=${spec.m}`, spec.M !== null && `M=${spec.M}`].filter(Boolean).join(', ');
    return unit ? `${plan} ${unit}` : plan;
  }
  if (low !== null && high !== null) return `${low}–${withUnit(high, unit)}`;
  if (high !== null) return `≤ ${withUnit(high, unit)}`;
  if (low !== null) return `≥ ${withUnit(low, unit)}`;
  return '—';
}

/** LOD and LOQ, where given. */
export function detectionText(spec: Specification): string {
  const parts = [spec.lod !== null && `LOD ${withUnit(spec.lod, spec.unit)}`, spec.loq !== null && `LOQ ${withUnit(spec.loq, spec.unit)}`].filter(Boolean);
  return parts.length ? parts.join(', ') : '—';
}

/** What the specification is narrowed to ("any sample" when nothing). */
export function scopeText(spec: Specification): string {
  const parts = [spec.sampleCategory, spec.species && speciesLabel(spec.species), spec.purpose && purposeText(spec.purpose as Purpose, null)].filter(Boolean);
  return parts.length ? parts.join(', ') : 'Any sample';
}

export const validityText = (spec: Specification) => `${formatDay(spec.validFrom)} – ${spec.validTo ? formatDay(spec.validTo) : 'until replaced'}`;

export const analyteLabel = (code: string) => findAnalyte(code)?.label ?? code;
