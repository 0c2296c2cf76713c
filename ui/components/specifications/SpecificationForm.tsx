import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ANALYTES, findAnalyte, PURPOSES, SAMPLE_CATEGORIES, SPECIES_CODES, speciesLabel, type Purpose } from '../../../server/domain/catalog.js';
import type { SpecKind, Specification } from '../../../server/domain/specifications.js';
import { createSpecification } from '../../api/specifications.js';
import { failureText } from '../../hooks/useLoad.js';
import { purposeText } from '../requests/format.js';
import { FIELD_LABELS, KIND_FIELDS, KIND_LABELS, specFormOf, specFormProblems, specInputOf, type NumberField, type SpecForm, type SpecFormField } from './specForm.js';

const KINDS: readonly SpecKind[] = ['qualitative', 'quantitative', 'count'];
const today = () => new Date().toISOString().slice(0, 10);

export interface SpecificationFormProps {
  /** The specification this form makes the next version of; null adds a new one. */
  base: Specification | null;
  onSaved: (saved: Specification) => void;
  onCancel: () => void;
}

/**
 * Adds a specification, or the next version of one (its analyte and scope kept: a version never
 * overwrites the one before, it follows it). After the first Save every problem shows beside its
 * field and goes as it is fixed; the server's refusal (e.g. dates that overlap another version)
 * shows above the buttons.
 */
export function SpecificationForm({ base, onSaved, onCancel }: SpecificationFormProps) {
  const id = useId();
  const [form, setForm] = useState<SpecForm>(() => specFormOf(base, today()));
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  // Opened from a row of the list below, the form takes the focus: the keyboard starts at its top.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const problems = attempted ? specFormProblems(form) : {};
  const count = Object.keys(problems).length;
  const set = (field: SpecFormField, value: string) => setForm((f) => ({ ...f, [field]: value }));
  const errorId = (field: SpecFormField) => `${id}-${field}-error`;
  const invalid = (field: SpecFormField) => (problems[field] ? { 'aria-invalid': true, 'aria-describedby': errorId(field) } : {});
  const error = (field: SpecFormField) =>
    problems[field] ? (
      <p className="field-error" id={errorId(field)}>
        <span aria-hidden="true">⚠ </span>
        {problems[field]}
      </p>
    ) : null;
  const field = (name: SpecFormField, label: string, input: ReactNode) => (
    <div className="field" key={name}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {input}
      {error(name)}
    </div>
  );
  const textInput = (name: SpecFormField, label: string, type = 'text', extra: Record<string, string | boolean> = {}) =>
    field(name, label, <input id={`${id}-${name}`} type={type} value={form[name]} onChange={(e) => set(name, e.target.value)} {...extra} {...invalid(name)} />);
  const numberInput = (name: NumberField) => textInput(name, FIELD_LABELS[name], 'text', { inputMode: 'decimal', autoComplete: 'off' });
  const scopeLocked = base !== null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    setFailure('');
    if (Object.keys(specFormProblems(form)).length > 0) return;
    setBusy(true);
    try {
      onSaved(await createSpecification(specInputOf(form, base?.id ?? null)));
    } catch (e) {
      setFailure(failureText(e));
      setBusy(false);
    }
  }

  const title = base ? `New version of ${findAnalyte(base.analyte)?.label ?? base.analyte} (now version ${base.version})` : 'Add a specification';
  return (
    <form className="form spec-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <fieldset className="form-section">
        <legend>Analyte and scope</legend>
        <p className="field-hint">Leave sample category, species or purpose at “any” unless the limit applies to it alone.</p>
        {field(
          'analyte',
          'Analyte',
          <select id={`${id}-analyte`} value={form.analyte} disabled={scopeLocked} onChange={(e) => set('analyte', e.target.value)} {...invalid('analyte')}>
            <option value="">Choose the analyte</option>
            {ANALYTES.map((a) => (
              <option key={a.code} value={a.code}>
                {a.label}
              </option>
            ))}
          </select>,
        )}
        {field(
          'sampleCategory',
          'Sample category',
          <select id={`${id}-sampleCategory`} value={form.sampleCategory} disabled={scopeLocked} onChange={(e) => set('sampleCategory', e.target.value)}>
            <option value="">Any</option>
            {SAMPLE_CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>,
        )}
        {field(
          'species',
          'Species of origin',
          <select id={`${id}-species`} value={form.species} disabled={scopeLocked} onChange={(e) => set('species', e.target.value)} {...invalid('species')}>
            <option value="">Any</option>
            {SPECIES_CODES.map((code) => (
              <option key={code} value={code}>
                {speciesLabel(code)}
              </option>
            ))}
          </select>,
        )}
        {field(
          'purpose',
          'Purpose',
          <select id={`${id}-purpose`} value={form.purpose} disabled={scopeLocked} onChange={(e) => set('purpose', e.target.value)}>
            <option value="">Any</option>
            {PURPOSES.map((p) => (
              <option key={p} value={p}>
                {purposeText(p as Purpose, null)}
              </option>
            ))}
          </select>,
        )}
      </fieldset>
      <fieldset className="form-section" {...(problems.kind ? { 'aria-describedby': errorId('kind') } : {})}>
        <legend>Kind</legend>
        <div className="choice-list">
          {KINDS.map((kind) => (
            <label key={kind} className="choice">
              <input type="radio" name={`${id}-kind`} value={kind} checked={form.kind === kind} onChange={() => set('kind', kind)} />
              {KIND_LABELS[kind]}
            </label>
          ))}
        </div>
        {error('kind')}
      </fieldset>
      {form.kind !== '' && (
        <fieldset className="form-section spec-numbers">
          <legend>Unit and limits</legend>
          {textInput('unit', form.kind === 'qualitative' ? 'Unit (optional)' : 'Unit', 'text', { placeholder: form.kind === 'count' ? 'cfu/g' : 'µg/kg' })}
          {KIND_FIELDS[form.kind].map(numberInput)}
        </fieldset>
      )}
      <fieldset className="form-section">
        <legend>Source and validity</legend>
        {textInput('source', 'Source', 'text', { placeholder: 'e.g. Regulation (EU) 37/2010, Annex Table 1' })}
        {textInput('validFrom', 'Valid from', 'date')}
        {textInput('validTo', 'Valid to (empty: until replaced)', 'date')}
      </fieldset>
      {count > 0 && (
        <p className="form-error" role="alert">
          Please correct the {count === 1 ? 'field' : `${count} fields`} marked above.
        </p>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving...' : 'Save specification'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
