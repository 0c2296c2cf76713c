import { useParams } from 'react-router-dom';
import { HomeCards, type HomeCard } from '../../components/HomeCards.js';
import { Page } from '../../components/Page.js';

/** /home/staff/{userId} (also the admins' home). */
export function StaffHomePage() {
  const { userId = '' } = useParams();
  const cards: HomeCard[] = [
    {
      title: 'Pending Requests',
      to: `/pending-requests/${userId}`,
      description: 'Review new requests: approve, reject or ask for more information.',
      icon: '⧗',
    },
    {
      title: 'For Release',
      to: `/for-release/${userId}`,
      description: 'Release completed results to clients.',
      icon: '✓',
    },
    {
      title: 'Released',
      to: `/released/${userId}`,
      description: 'Certificates of released requests; amend their results.',
      icon: '▤',
    },
    {
      title: 'Database',
      to: `/receive-release-database/${userId}`,
      description: 'Monthly positive and negative counts per test.',
      icon: '▦',
    },
    {
      title: 'Specifications',
      to: `/specifications/${userId}`,
      description: 'Limits per analyte, their versions and sources, and the decision rule.',
      icon: '⚖',
    },
  ];
  const traceability: HomeCard[] = [
    { title: 'Turnaround', to: `/turnaround/${userId}`, description: 'Open requests by age and due date, late ones first.', icon: '⏱' },
    { title: 'Audit Trail', to: `/audit-trail/${userId}`, description: 'Who changed what, and when.', icon: '☰' },
  ];
  return (
    <Page title="Welcome to the Receive and Release Portal, Staff!" note="Choose a task." width="wide">
      <HomeCards cards={cards} label="Receive and release tasks" />
      <HomeCards cards={traceability} label="Traceability" />
    </Page>
  );
}
