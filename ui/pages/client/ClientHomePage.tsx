import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { getMe } from '../../api/session.js';
import { HomeCards, type HomeCard } from '../../components/HomeCards.js';
import { Page } from '../../components/Page.js';

/** /home/client/{userId}: welcomes the client by username; three cards. */
export function ClientHomePage() {
  const { userId = '' } = useParams();
  const [name, setName] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getMe(controller.signal)
      .then((me) => setName(me.username?.trim() || me.firstName))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Could not load the profile', error);
      });
    return () => controller.abort();
  }, []);

  const cards: HomeCard[] = [
    {
      title: 'Submit a Request',
      to: `/submit-a-request/${userId}`,
      description: 'Send samples for testing and see the estimated fee.',
      icon: '+',
    },
    {
      title: 'Track My Request',
      to: `/track-my-request/${userId}`,
      description: 'Follow your requests and read released results.',
      icon: '☰',
    },
    {
      title: 'Guide',
      to: `/guide/${userId}`,
      description: 'Sample requirements, packing, fees and processing times.',
      icon: '?',
    },
  ];

  return (
    <Page
      title={name ? `Welcome, ${name}!` : 'Welcome!'}
      documentTitle="Client Home"
      note="What would you like to do today?"
      width="wide"
    >
      <HomeCards cards={cards} label="Client services" />
    </Page>
  );
}
