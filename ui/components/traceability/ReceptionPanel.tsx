import { useCallback, useId, useState, type FormEvent } from 'react';
import { RECEIPT_CONDITIONS, CONDITION_LABELS, MICROBIOLOGY_MAX_TEMPERATURE_C, isTooWarm, type Receipt, type ReceiptCondition } from '../../../server/domain/reception.js';
import { getReceipt, recordReceipt } from '../../api/traceability.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import { LoadStatus } from '../LoadStatus.js';
import { ReceiptNote } from './ReceiptNote.js';

/** Now as the value of a datetime-local input (local time, to the minute). */
function localNow(): string {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

/**
 * Staff record the arrival of an approved request's samples (issue 15): date and time, containers,
 * condition (a reason when not acceptable) and temperature. Once recorded, the receipt is shown.
 */
export function ReceptionPanel({ requestId }: { requestId: string | number }) {
  const id = useId();
  const state = useLoad(useCallback((signal: AbortSignal) => getReceipt(requestId, signal), [requestId]));
  const [recorded, setRecorded] = useState<Receipt | null>(null);
  const [receivedAt, setReceivedAt] = useState(localNow);
  const [containers, setContainers] = useState('1');
  const [condition, setCondition] = useState<ReceiptCondition>('acceptable');
  const [reason, setReason] = useState('');
  const [temperature, setTemperature] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const receipt = recorded ?? (state.status === 'ready' ? state.data : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setRecorded(
        await recordReceipt(requestId, {
          receivedAt: new Date(receivedAt).toISOString(),
          containers: Number(containers),
          condition,
          reason: condition === 'not-acceptable' ? reason : null,
          temperatureC: temperature.trim() === '' ? null : Number(temperature),
        }),
      );
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="reception" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sample Reception</h2>
      <LoadStatus state={state} />
      {receipt && <ReceiptNote receipt={receipt} />}
      {state.status === 'ready' && !receipt && (
        <form className="form reception-form" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-at`}>Received at</label>
            <input id={`${id}-at`} type="datetime-local" value={receivedAt} onChange={(e) => setReceivedAt(e.target.value)} required />
          </div>
          <div className="field">
            <label htmlFor={`${id}-containers`}>Number of containers</label>
            <input id={`${id}-containers`} type="number" min={1} max={999} value={containers} onChange={(e) => setContainers(e.target.value)} required />
          </div>
          <fieldset className="field">
            <legend>Condition on arrival</legend>
            {RECEIPT_CONDITIONS.map((c) => (
              <label key={c} className="choice">
                <input type="radio" name={`${id}-condition`} value={c} checked={condition === c} onChange={() => setCondition(c)} /> {CONDITION_LABELS[c]}
              </label>
            ))}
          </fieldset>
          {condition === 'not-acceptable' && (
            <div className="field">
              <label htmlFor={`${id}-reason`}>Reason</label>
              <textarea id={`${id}-reason`} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} required />
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-temperature`}>Temperature on arrival (°C)</label>
            <input id={`${id}-temperature`} type="number" step="0.1" value={temperature} onChange={(e) => setTemperature(e.target.value)} />
            {temperature.trim() !== '' && isTooWarm(Number(temperature)) && (
              <p className="field-hint receipt-warning">⚠ Above the {MICROBIOLOGY_MAX_TEMPERATURE_C} °C limit for microbiological samples.</p>
            )}
          </div>
          <div>
            <button type="submit" className="button button-primary" disabled={busy}>
              Record Receipt
            </button>
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
