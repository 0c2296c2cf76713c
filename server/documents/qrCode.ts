// QR codes drawn into a PDF as filled vector squares: sharp at any printer resolution, and written
// synchronously with the page (an embedded PNG is decoded asynchronously by pdfkit, so two of them
// can land in the file in either order and the same document would not give the same bytes).
import type { BitMatrix } from 'qrcode';

/** A QR code's modules (qrcode's `create(text).modules`) as filled squares at (x, y), `size` points wide including a one-module quiet zone. */
export function drawQr(doc: PDFKit.PDFDocument, modules: BitMatrix, x: number, y: number, size: number): void {
  const cell = size / (modules.size + 2);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) doc.rect(x + (col + 1) * cell, y + (row + 1) * cell, cell, cell);
    }
  }
  doc.fillColor('black').fill();
}
