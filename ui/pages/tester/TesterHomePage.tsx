import { useParams } from 'react-router-dom';
import type { Discipline } from '../../../server/domain/roles.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { HomeCards, type HomeCard } from '../../components/HomeCards.js';
import { Page } from '../../components/Page.js';

/** /home/{chem,microbio,molbio}tester/{userId}. */
export function TesterHomePage({ discipline }: { discipline: Discipline }) {
  const { userId = '' } = useParams();
  const info = DISCIPLINE_INFO[discipline];
  const cards: HomeCard[] = [
    {
      title: 'For Testing',
      to: `/for-testing-${discipline}/${userId}`,
      description: `Enter ${info.name.toLowerCase()} results of approved requests.`,
      icon: '⚗',
    },
    {
      title: 'Test Results',
      to: `/test-results-${discipline}/${userId}`,
      description: 'Results waiting for release and released results.',
      icon: '✓',
    },
    {
      title: 'Database',
      to: `/testing-database-${discipline}/${userId}`,
      description: 'Monthly positive and negative counts per test.',
      icon: '▦',
    },
  ];
  return (
    <Page title={info.welcome} note="Choose a task." width="wide">
      <HomeCards cards={cards} label={`${info.name} testing tasks`} />
    </Page>
  );
}
