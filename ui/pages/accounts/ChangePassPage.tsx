import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /change-pass/{email}: new password and its repetition. (Placeholder.) */
export function ChangePassPage() {
  const { email = '' } = useParams();
  return (
    <Page title="Change Password" note={`Choose a new password for ${email}.`} width="narrow">
      <div className="form-links">
        <NavButton to="/login" variant="link">
          Back To Log In
        </NavButton>
      </div>
    </Page>
  );
}
