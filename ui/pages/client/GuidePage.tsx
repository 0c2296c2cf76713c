import { Page } from '../../components/Page.js';

/** /guide/{userId}: packing, sample requirements, fees and processing times. (Placeholder.) */
export function GuidePage() {
  return <Page title="Guide" note="How to pack and send samples, and what each test costs and takes." width="wide" />;
}
