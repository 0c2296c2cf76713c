import { NavButton } from '../NavButton.js';
import { Page } from '../Page.js';

export interface NoticePageProps {
  title: string;
  note: string;
  /** Where 'Go Back' leads. */
  back: string;
}

/** A message screen of the account flows with one 'Go Back' button. */
export function NoticePage({ title, note, back }: NoticePageProps) {
  return (
    <Page title={title} note={note} width="narrow">
      <div className="actions">
        <NavButton to={back} variant="primary">
          Go Back
        </NavButton>
      </div>
    </Page>
  );
}
