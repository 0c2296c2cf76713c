import { GUIDE_FEE_TABLE, PACKAGING_INSTRUCTIONS, SAMPLE_REQUIREMENTS } from '../../../server/domain/catalog.js';
import { formatPhp } from '../../../server/domain/fees.js';
import { Page } from '../../components/Page.js';
import '../../styles/client.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

/** /guide/{userId}: packaging and transport, sample requirements, and the fee and processing-time table (SPEC section 9). */
export function GuidePage() {
  return (
    <Page title="Guide" note="How to pack and send samples, and what each test costs and takes." width="wide">
      <section className="guide-section" aria-labelledby="guide-packaging">
        <h2 id="guide-packaging">Packaging and Transport</h2>
        <ul className="guide-list">
          {PACKAGING_INSTRUCTIONS.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>

      <section className="guide-section" aria-labelledby="guide-requirements">
        <h2 id="guide-requirements">Sample Requirements</h2>
        <ScrollingTable label="Sample requirements">
          <table>
            <thead>
              <tr>
                <th scope="col">Test Type</th>
                <th scope="col">Requirement</th>
              </tr>
            </thead>
            <tbody>
              {SAMPLE_REQUIREMENTS.map((r) => (
                <tr key={r.testType}>
                  <th scope="row">{r.testType}</th>
                  <td>{r.requirement}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      </section>

      <section className="guide-section" aria-labelledby="guide-fees">
        <h2 id="guide-fees">Fees and Processing Time</h2>
        <ScrollingTable label="Fees and processing time">
          <table className="guide-fees">
            <caption className="visually-hidden">Fee (PHP) and processing time (working days) per test</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Test</th>
                <th scope="col">Fee (PHP)</th>
                <th scope="col">Processing Time (working days)</th>
              </tr>
            </thead>
            <tbody>
              {GUIDE_FEE_TABLE.map((row) => (
                <tr key={row.test}>
                  <td>{row.group}</td>
                  <th scope="row">{row.test}</th>
                  <td className="number">
                    {formatPhp(row.fee)}
                    {row.each ? ' each' : ''}
                  </td>
                  <td className="number">{row.days}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      </section>
    </Page>
  );
}
