import { useState, type FormEvent } from 'react';
import { COMPANY_ADDRESS_MAX } from '../../../server/domain/accountRules.js';
import type { ClientProfile } from '../../../server/domain/clientProfile.js';
import { isApiError } from '../../api/http.js';
import { setCompanyAddress } from '../../api/requests.js';
import { TextField } from '../TextField.js';

/**
 * The client's company address, kept on its profile and printed on its certificates of analysis
 * (ISO/IEC 17025 7.8.2.1 e): shown, and changed in place.
 */
export function CompanyAddressForm({ userId, address, onSaved }: { userId: string; address: string | null; onSaved: (profile: ClientProfile) => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(address ?? '');
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      onSaved(await setCompanyAddress(userId, draft));
      setEditing(false);
      setStatus({ error: false, text: 'Address saved.' });
    } catch (error) {
      setStatus({ error: true, text: isApiError(error) && error.status < 500 ? error.message : 'The address could not be saved. Please try again.' });
    } finally {
      setBusy(false);
    }
  }

  if (!editing) {
    return (
      <div className="company-address">
        {status && <p role={status.error ? 'alert' : 'status'}>{status.text}</p>}
        <button type="button" className="button button-secondary button-small" onClick={() => { setDraft(address ?? ''); setStatus(null); setEditing(true); }}>
          {address ? 'Change address' : 'Add address'}
        </button>
      </div>
    );
  }
  return (
    <form className="company-address" onSubmit={(e) => void save(e)}>
      <TextField
        label="Address"
        name="address"
        autoComplete="street-address"
        maxLength={COMPANY_ADDRESS_MAX}
        hint="The company's postal address, printed on your certificates of analysis."
        value={draft}
        onValueChange={setDraft}
      />
      {status?.error && (
        <p className="form-error" role="alert">
          {status.text}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary button-small" disabled={busy}>
          Save address
        </button>
        <button type="button" className="button button-secondary button-small" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
