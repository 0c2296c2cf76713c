// Lays out a certificate of analysis (ISO/IEC 17025:2017 7.8.2.1) as a PDF from an issued report and
// the laboratory's settings; no database, no clock. Deterministic: the document dates and file ID come
// from the issue time, fonts are the PDF standard ones (nothing embedded, no random subset tags) and
// the QR code is drawn as vector squares, so the same report gives the same bytes.
import { drawQr } from '../../documents/qrCode.js';
import { findAnalyte, purposeLabel, type Purpose } from '../../domain/catalog.js';
import {
  ADDRESS_NOT_ON_FILE,
  amendedReadingText,
  amendmentLabel,
  analysisPeriod,
  findingText,
  measuredText,
  printedTime,
  receiptConditionText,
  receiptDateText,
  receiptTemperatureText,
  RELATES_ONLY_STATEMENT,
  sampleDescriptionText,
  type IssuedReport,
} from '../../domain/certificate.js';
import { DECISION_RULE_TEXT, OUTCOME_TEXT, type DecisionRule } from '../../domain/specifications.js';

export interface CertificateLab {
  name: string;
  shortName: string;
  address: string;
}

const MARGIN = 50;
const FOOTER_SPACE = 40;
const WARNING_COLOUR = '#8a4b00';
const WITHDRAWN_COLOUR = '#b00020';

interface Column {
  header: string;
  width: number;
}

const SAMPLE_COLUMNS: Column[] = [
  { header: 'Sample', width: 50 },
  { header: 'Description', width: 265 },
  { header: 'Condition on receipt', width: 180 },
];

const RESULT_COLUMNS: Column[] = [
  { header: 'Sample', width: 40 },
  { header: 'Test', width: 120 },
  { header: 'Result', width: 110 },
  { header: 'Unit', width: 75 },
  { header: 'Finding', width: 90 },
  { header: 'Analysed', width: 60 },
];

// The statement of conformity (ISO/IEC 17025 7.8.6, issue 26): per judged analysis.
const CONFORMITY_COLUMNS: Column[] = [
  { header: 'Sample', width: 40 },
  { header: 'Test', width: 90 },
  { header: 'Specification and source', width: 175 },
  { header: 'Value (unit, U)', width: 90 },
  { header: 'Statement', width: 100 },
];

// What an amendment changed against the report it replaces (ISO/IEC 17025 7.8.8.1: any change of information is clearly identified).
const CHANGE_COLUMNS: Column[] = [
  { header: 'Sample', width: 40 },
  { header: 'Test', width: 105 },
  { header: 'As reported before', width: 175 },
  { header: 'As amended', width: 175 },
];

const dash = (text: string | null | undefined) => (text && text.trim() ? text : '-');

/** Renders `report` and answers the PDF bytes. `verifyUrl` is what the QR code and the printed link open. */
export async function renderCertificate(report: IssuedReport, lab: CertificateLab, verifyUrl: string): Promise<Buffer> {
  const issued = new Date(report.issuedAt);
  const c = report.content;
  // Loaded on first use: pdfkit unpacks its font metrics on import, which no other call should pay for
  // (it was a large part of `labctl serve`'s start-up).
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import('pdfkit'), import('qrcode')]);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Certificate of Analysis ${report.reportNumber}`,
      Author: lab.name,
      Subject: `Control Number ${c.controlNumber}`,
      Producer: lab.name,
      Creator: lab.name,
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER_SPACE;
  const ensureRoom = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };
  const heading = (text: string) => {
    ensureRoom(40);
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).fillColor('black').text(text, MARGIN, doc.y, { width });
    doc.moveDown(0.2);
  };
  const field = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(9).fillColor('black').text(`${label}: `, MARGIN, doc.y, { continued: true, width });
    doc.font('Helvetica').text(value);
  };
  const table = (columns: Column[], rows: Array<{ cells: string[]; warning?: boolean }>) => {
    const drawRow = (cells: string[], bold: boolean, warning = false) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
      const height = Math.max(...cells.map((text, i) => doc.heightOfString(text, { width: columns[i].width - 4 }))) + 4;
      if (doc.y + height > bottom()) {
        doc.addPage();
        if (!bold) drawRow(columns.map((col) => col.header), true);
        doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
      }
      const top = doc.y;
      let x = MARGIN;
      cells.forEach((text, i) => {
        const isFinding = warning && (columns[i].header === 'Finding' || columns[i].header === 'Statement');
        doc.font(bold || isFinding ? 'Helvetica-Bold' : 'Helvetica').fillColor(isFinding ? WARNING_COLOUR : 'black');
        doc.text(text, x + 2, top + 2, { width: columns[i].width - 4 });
        x += columns[i].width;
      });
      doc.moveTo(MARGIN, top + height).lineTo(MARGIN + width, top + height).lineWidth(0.5).strokeColor('#999999').stroke();
      doc.x = MARGIN;
      doc.y = top + height;
    };
    drawRow(columns.map((col) => col.header), true);
    for (const row of rows) drawRow(row.cells, false, row.warning);
  };

  // Laboratory and title (7.8.2.1 a, b).
  doc.font('Helvetica-Bold').fontSize(14).text(lab.name, { width, align: 'center' });
  doc.font('Helvetica').fontSize(9).text(lab.address, { width, align: 'center' });
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(18).text('Certificate of Analysis', { width, align: 'center' });
  if (report.replaces) {
    doc.font('Helvetica-Bold').fontSize(11).fillColor(WARNING_COLOUR).text(amendmentLabel(report.version, report.replaces), { width, align: 'center' });
    doc.fillColor('black');
  }
  // A withdrawn report stays readable, but says first and on every page that it is not valid.
  if (report.withdrawal) {
    doc.moveDown(0.4).font('Helvetica-Bold').fontSize(12).fillColor(WITHDRAWN_COLOUR)
      .text(`WITHDRAWN on ${report.withdrawal.at.slice(0, 10)}: this report is no longer valid.`, { width, align: 'center' });
    doc.font('Helvetica').fontSize(9).text(`Reason: ${report.withdrawal.reason}`, { width, align: 'center' });
    doc.text(`Withdrawn by ${report.withdrawal.signerName}, ${printedTime(report.withdrawal.at)}`, { width, align: 'center' });
    doc.fillColor('black');
  }
  doc.moveDown(0.8);

  // Identification and dates (7.8.2.1 c, h, i).
  field('Report No.', report.reportNumber);
  field('Control Number', c.controlNumber);
  field('Date of issue', report.issuedAt.slice(0, 10));
  if (report.replaces) {
    field('Replaces report', report.replaces);
    field('Reason for amendment', dash(report.amendmentReason));
  }
  if (report.replaces && report.changes.length) {
    heading(`Changes from report ${report.replaces}`);
    table(CHANGE_COLUMNS, report.changes.map((change) => ({
      cells: [String(change.samplePosition), findAnalyte(change.testCode)?.label ?? change.testCode, amendedReadingText(change.before), amendedReadingText(change.after)],
    })));
  }

  // Customer (7.8.2.1 e).
  heading('Client');
  field('Name', c.client.companyName);
  field('Address', c.client.address || ADDRESS_NOT_ON_FILE);
  field('Contact', `represented by ${c.client.representativeName}; ${c.client.contactNumber}; ${c.client.emailAddress}`);
  field('Classification', `${c.client.classification}${c.client.ltoNumber ? `, LTO ${c.client.ltoNumber}` : ''}`);

  // Items tested (7.8.2.1 g, h, i).
  heading('Samples');
  field('Purpose of testing', purposeLabel(c.testingPurpose as Purpose, lab.shortName) ?? c.testingPurpose);
  field('Sample category', c.sampleCategory);
  field('Lot/Batch No.', dash(c.lotBatchNo));
  field('Sample source', dash(c.sampleSource));
  field('Sampled by', dash(c.samplerName));
  field('Date of sampling', dash(c.samplingDate));
  field('Production / expiry date', `${dash(c.productionDate)} / ${dash(c.expiryDate)}`);
  field('Date of request', dash(c.submissionDate));
  field('Date of receipt', receiptDateText(c.receipt));
  field('Condition on arrival', receiptConditionText(c.receipt));
  field('Temperature on arrival', receiptTemperatureText(c.receipt));
  field('Date(s) of analysis', analysisPeriod(c.analyses));
  doc.moveDown(0.4);
  table(SAMPLE_COLUMNS, c.samples.map((s) => ({ cells: [String(s.position), sampleDescriptionText(s), receiptConditionText(c.receipt)] })));

  // Methods, once per test (7.8.2.1 f), then the results with units (7.8.2.1 n).
  heading('Methods');
  for (const code of [...new Set(c.analyses.map((a) => a.testCode))]) {
    const analyte = findAnalyte(code);
    field(analyte?.label ?? code, analyte?.method ?? '-');
  }
  heading('Results');
  table(
    RESULT_COLUMNS,
    c.analyses.map((a) => {
      const analyte = findAnalyte(a.testCode);
      return {
        cells: [String(a.samplePosition), analyte?.label ?? a.testCode, dash(a.value), analyte?.unit ?? '-', dash(findingText(a.remark)), dash(a.analysisDate)],
        warning: a.remark === 'positive',
      };
    }),
  );

  // The statement of conformity (7.8.6): the rule, then per analysis its specification, value and statement.
  const judged = c.analyses.filter((a) => a.decision);
  if (judged.length) {
    heading('Statement of conformity (ISO/IEC 17025 7.8.6)');
    for (const rule of [...new Set(judged.map((a) => a.decision!.rule))] as DecisionRule[]) field('Decision rule', DECISION_RULE_TEXT[rule]);
    doc.moveDown(0.4);
    table(
      CONFORMITY_COLUMNS,
      judged.map((a) => {
        const d = a.decision!;
        const spec = a.specification;
        return {
          cells: [
            String(a.samplePosition),
            findAnalyte(a.testCode)?.label ?? a.testCode,
            spec ? `${spec.requirement}; ${spec.source} (specification version ${spec.version})` : '-',
            measuredText(a),
            `${OUTCOME_TEXT[d.outcome]}: ${d.reason}`,
          ],
          warning: d.outcome !== 'conforms',
        };
      }),
    );
  }

  // Authorization (7.8.2.1 o) and the statements (7.8.2.1 p).
  heading('Authorization');
  field('Authorized by', report.signerName);
  field('Signature meaning', report.signatureMeaning);
  field('Signed electronically', printedTime(report.issuedAt));
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(9).text(RELATES_ONLY_STATEMENT, MARGIN, doc.y, { width });
  doc.font('Helvetica').text('This certificate shall not be reproduced except in full without the written approval of the laboratory.', { width });

  // Verification: the QR code and the same address in text.
  const qrSize = 90;
  ensureRoom(qrSize + 20);
  doc.moveDown(0.6);
  const top = doc.y;
  drawQr(doc, QRCode.create(verifyUrl, { errorCorrectionLevel: 'M' }).modules, MARGIN, top, qrSize);
  doc.font('Helvetica').fontSize(8).fillColor('black')
    .text('Verify this certificate: scan the code or open', MARGIN + qrSize + 12, top + 20, { width: width - qrSize - 12 })
    .text(verifyUrl, { width: width - qrSize - 12 });
  doc.x = MARGIN;
  doc.y = top + qrSize;

  // The report's identification and "Page x of y" on every page (7.8.2.1 c).
  const { start, count } = doc.bufferedPageRange();
  const mark = report.withdrawal ? '    WITHDRAWN' : '';
  for (let i = start; i < start + count; i += 1) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor(report.withdrawal ? WITHDRAWN_COLOUR : 'black')
      .text(`Report ${report.reportNumber}${mark}    Page ${i - start + 1} of ${count}`, MARGIN, doc.page.height - MARGIN - 10, { width, align: 'center', lineBreak: false });
  }
  doc.end();
  return done;
}
