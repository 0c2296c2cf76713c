import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { MESSAGE_MAX_LENGTH } from '../../../server/domain/requestMessages.js';
import { postRequestMessage } from '../../api/desk.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { RequestMessages } from '../../components/requests/RequestMessages.js';
import { failureText } from '../../hooks/useLoad.js';
import '../../styles/client.css';
import '../../styles/staff.css';

/**
 * /request-additional-info/{userId}/{requestId}: ask the client for more information. Done stores the
 * comment, which is e-mailed to the client and shown on its review screen (DESIGN.md section 10);
 * with nothing typed, Done just goes back to the staff home.
 */
export function RequestAdditionalInfoPage() {
  const { userId = '', requestId = '' } = useParams();
  const navigate = useNavigate();
  const id = useId();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function done(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (comment.trim() !== '') await postRequestMessage(requestId, comment);
      navigate(`/home/staff/${userId}`);
    } catch (failure) {
      setError(failureText(failure));
      setBusy(false);
    }
  }

  return (
    <Page title="Request Additional Information" note="Type your comments down below" width="medium">
      <BackArrow to={`/request-details/${userId}/${requestId}`} label="Request Details" />
      <RequestMessages requestId={requestId} />
      <form className="form" onSubmit={done}>
        <div className="field">
          <label htmlFor={`${id}-comment`}>Additional information needed from the client</label>
          <textarea
            id={`${id}-comment`}
            placeholder="Enter additional information"
            value={comment}
            maxLength={MESSAGE_MAX_LENGTH}
            onChange={(e) => setComment(e.target.value)}
          />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            Done
          </button>
        </div>
      </form>
    </Page>
  );
}
