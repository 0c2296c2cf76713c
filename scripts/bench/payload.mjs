// The submission the benchmarks send (ours and the obvious implementation alike): the demo client's
// request of two samples for two microbiology tests, as the portal's form builds it.
import path from 'node:path';

/** A function making that submission for lot `lot`, from the built domain code under `root`. */
export async function submissionPayloads(root) {
  const { buildSubmitPayload } = await import(path.join(root, 'dist/server/domain/requestPayload.js'));
  return (lot) =>
    buildSubmitPayload(
      {
        representativeName: 'democlient', contactNumber: '639171234567', emailAddress: 'client@demo.lab', companyName: 'Demo Meat Traders Inc.',
        clientClassification: 'Importer', ltoNumber: 'LTO-2026-001', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in',
        lotBatchNo: lot, sampleSource: 'Cold storage', productionDate: '', expiryDate: '', samplingDate: '', samplerName: 'Bench',
        samples: ['Beef loin', 'Pork belly'], tests: ['eColi', 'salmonellaSp'], gramPositiveAst: '', gramNegativeAst: '',
      },
      new Date(),
    );
}
