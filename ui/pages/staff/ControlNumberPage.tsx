import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { getControlNumber, getLastApprovedControlNumber } from '../../api/desk.js';
import { NextPendingButton } from '../../components/desk/NextPendingButton.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import '../../styles/staff.css';

/**
 * /request-control-number/{userId}/{requestId}: the control number of the approved request;
 * /approved/{userId}: that of the request this staff member approved last (DESIGN.md section 10).
 */
export function ControlNumberPage() {
  const { userId = '', requestId } = useParams();
  const state = useLoad(
    useCallback(
      (signal: AbortSignal) => (requestId ? getControlNumber(requestId, signal) : getLastApprovedControlNumber(signal)),
      [requestId],
    ),
  );

  return (
    <Page title="Request Approved" width="narrow">
      <p className="control-number" aria-live="polite">
        <span className="control-number-label">Control Number:</span>{' '}
        {state.status === 'loading' && <span>Loading...</span>}
        {state.status === 'error' && <span className="control-number-error">{failureText(state.error)}</span>}
        {state.status === 'ready' && <strong className="control-number-value">{state.data}</strong>}
      </p>
      <div className="actions">
        <NavButton to={`/home/staff/${userId}`} variant="primary">
          Done
        </NavButton>
        <NextPendingButton userId={userId} />
      </div>
    </Page>
  );
}
