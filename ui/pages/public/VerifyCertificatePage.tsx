import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { verifyCertificate } from '../../api/certificates.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/certificates.css';

const STATUS_TEXT = {
  valid: 'Valid: this is the current certificate of the request.',
  amended: 'Replaced: this certificate was replaced by an amended certificate and is no longer valid.',
  withdrawn: 'Withdrawn: the laboratory has withdrawn this certificate and it is no longer valid.',
} as const;

const STATUS_LABEL = { valid: 'Valid', amended: 'Replaced', withdrawn: 'Withdrawn' } as const;

/** /verify/{token}: public (no login). What a certificate's QR code opens: the report's identity and status only. */
export function VerifyCertificatePage() {
  const { token = '' } = useParams();
  const state = useLoad(useCallback((signal: AbortSignal) => verifyCertificate(token, signal), [token]));
  return (
    <Page title="Certificate Verification" note="Checks a certificate of analysis issued by this laboratory." width="narrow">
      <LoadStatus state={state} loading="Checking the certificate..." />
      {state.status === 'ready' && (
        <>
          <dl className="verification">
            <dt>Report</dt>
            <dd>{state.data.reportNumber}</dd>
            <dt>Control Number</dt>
            <dd>{state.data.controlNumber}</dd>
            <dt>Date of issue</dt>
            <dd>{state.data.issueDate}</dd>
            <dt>Status</dt>
            <dd className={`verification-${state.data.status}`}>{STATUS_LABEL[state.data.status]}</dd>
          </dl>
          <p role="status" className={`verification-${state.data.status}`}>
            {STATUS_TEXT[state.data.status]}
          </p>
        </>
      )}
    </Page>
  );
}
