// Sample labels as a PDF (issue 15): one 62 mm x 29 mm page per sample, the continuous-roll size of
// common label printers (Brother DK-22205 and alike). Each label carries the control number, the
// sample's position, its description and a QR code of "<control number>/<position>".
// Deterministic: the same request gives the same bytes (fixed document dates and so file ID, built-in
// fonts, vector QR codes).
import { drawQr } from './qrCode.js';

export interface LabelSample {
  position: number;
  description: string;
}

export interface LabelSheet {
  controlNumber: string;
  labShortName: string;
  samples: readonly LabelSample[];
  /** Fixed in the document's metadata so the bytes do not depend on the time of printing. */
  documentDate: Date;
}

const MM = 72 / 25.4;
const PAGE: [number, number] = [62 * MM, 29 * MM];
const MARGIN = 2 * MM;
const QR_SIZE = PAGE[1] - 2 * MARGIN;
const DESCRIPTION_MAX = 60;

/** What a label's QR code says: the control number and the sample's position. */
export const labelCode = (controlNumber: string, position: number) => `${controlNumber}/${position}`;

function shortened(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > DESCRIPTION_MAX ? `${oneLine.slice(0, DESCRIPTION_MAX - 1)}…` : oneLine;
}

export async function renderLabelSheet(sheet: LabelSheet): Promise<Buffer> {
  // Loaded on first use, not with the server: pdfkit unpacks its font metrics on import.
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import('pdfkit'), import('qrcode')]);
  const doc = new PDFDocument({
    size: PAGE,
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: `Sample labels ${sheet.controlNumber}`, Producer: 'labctl', Creator: 'labctl', CreationDate: sheet.documentDate, ModDate: sheet.documentDate },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const textX = MARGIN + QR_SIZE + 2 * MM;
  const textWidth = PAGE[0] - textX - MARGIN;
  for (const sample of sheet.samples) {
    doc.addPage();
    drawQr(doc, QRCode.create(labelCode(sheet.controlNumber, sample.position), { errorCorrectionLevel: 'M' }).modules, MARGIN, MARGIN, QR_SIZE);
    doc.font('Helvetica-Bold').fontSize(10).text(sheet.controlNumber, textX, MARGIN, { width: textWidth, lineBreak: false });
    doc.font('Helvetica').fontSize(7).text(`Sample ${sample.position} of ${sheet.samples.length}`, textX, MARGIN + 13, { width: textWidth, lineBreak: false });
    doc.fontSize(6.5).text(shortened(sample.description) || '(no description)', textX, MARGIN + 23, { width: textWidth, height: 30, ellipsis: true });
    doc.fontSize(5.5).text(sheet.labShortName, textX, PAGE[1] - MARGIN - 7, { width: textWidth, lineBreak: false });
  }
  doc.end();
  return done;
}
