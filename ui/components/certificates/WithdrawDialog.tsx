import { useId, useState } from 'react';
import { MAX_WITHDRAWAL_REASON, WITHDRAWAL_MEANING } from '../../../server/domain/certificate.js';
import { withdrawReport } from '../../api/certificates.js';
import { useNotify } from '../Notice.js';
import { SignatureDialog } from '../SignatureDialog.js';

/** Staff withdraw a released report: a reason and their password (the signature means "Report withdrawn"). */
export function WithdrawDialog({ reportNumber, onDone, onClose }: { reportNumber: string; onDone: () => void; onClose: () => void }) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const notify = useNotify();

  async function sign(password: string) {
    const withdrawn = await withdrawReport(reportNumber, { reason, password });
    notify(`Certificate ${withdrawn.reportNumber} withdrawn.`, 'success');
    onDone();
  }

  return (
    <SignatureDialog
      title={`Withdraw certificate ${reportNumber}`}
      meaning={WITHDRAWAL_MEANING}
      signLabel="Sign and withdraw"
      failureMessage="The certificate could not be withdrawn. Please try again."
      onSign={sign}
      onClose={onClose}
    >
      <p>The certificate stays readable, marked withdrawn; its verification page will say it is no longer valid, and the client is e-mailed.</p>
      <div className="field">
        <label htmlFor={reasonId}>Reason for the withdrawal</label>
        <textarea id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={MAX_WITHDRAWAL_REASON} rows={3} />
      </div>
    </SignatureDialog>
  );
}
