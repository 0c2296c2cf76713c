import { CONDITION_LABELS, MICROBIOLOGY_MAX_TEMPERATURE_C, type Receipt } from '../../../server/domain/reception.js';
import '../../styles/traceability.css';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * How a request's samples arrived. A receipt that is not acceptable, or too warm for microbiology,
 * is a warning (amber, with an icon and the words), for the tester and the client alike.
 */
export function ReceiptNote({ receipt }: { receipt: Receipt }) {
  return (
    <div className={`receipt${receipt.flagged ? ' receipt-flagged' : ''}`} role={receipt.flagged ? 'alert' : undefined} data-testid="receipt">
      <p className="receipt-title">
        {receipt.flagged && <span aria-hidden="true">⚠ </span>}
        Samples received {when(receipt.receivedAt)} by {receipt.receivedByName}
      </p>
      <ul className="receipt-facts">
        <li>Containers: {receipt.containers}</li>
        <li>
          Condition on arrival: <strong>{CONDITION_LABELS[receipt.condition]}</strong>
          {receipt.reason && <> ({receipt.reason})</>}
        </li>
        {receipt.temperatureC !== null && (
          <li>
            Temperature on arrival: {receipt.temperatureC} °C
            {receipt.temperatureFlagged && <strong> (above the {MICROBIOLOGY_MAX_TEMPERATURE_C} °C microbiology limit)</strong>}
          </li>
        )}
      </ul>
    </div>
  );
}
