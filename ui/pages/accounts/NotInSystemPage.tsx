import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /not-in-system: the e-mail given on /forget is unknown. */
export function NotInSystemPage() {
  return (
    <Page title="E-mail not found" note="This e-mail is not in the system." width="narrow">
      <div className="actions">
        <NavButton to="/forget" variant="primary">
          Go Back
        </NavButton>
      </div>
    </Page>
  );
}
