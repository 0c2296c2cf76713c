// Printable sample labels of an approved request (issue 15), for the desk and `labctl labels`.
import type { Knex } from 'knex';
import { renderLabelSheet } from '../../documents/labelSheet.js';
import { conflict } from '../../errors.js';
import { samplesOf } from './read.js';
import { readRequestHead } from './transitions.js';

export interface Labels {
  controlNumber: string;
  pdf: Buffer;
}

/** One label per sample; 409 before approval (a label carries the control number). The caller checked the reader (the desk). */
export async function sampleLabels(db: Knex, requestId: number, labShortName: string): Promise<Labels> {
  const head = await readRequestHead(db, requestId);
  if (!head.controlNumber) throw conflict('Labels carry the control number: approve the request first.');
  const approved = await db('requests').where('id', requestId).first('approved_at');
  const samples = (await samplesOf(db, [requestId])).get(requestId) ?? [];
  const pdf = await renderLabelSheet({
    controlNumber: head.controlNumber,
    labShortName,
    samples: samples.map((s) => ({ position: s.position, description: s.sampleTypeDescription })),
    // The approval time, not the time of printing: the same request always prints the same file.
    documentDate: new Date(approved?.approved_at ?? head.submissionDate),
  });
  return { controlNumber: head.controlNumber, pdf };
}

/** Looks a request up by its control number (the CLI's way of naming one); undefined when there is none. */
export async function requestIdOfControlNumber(db: Knex, controlNumber: string): Promise<number | undefined> {
  const row = await db('requests').where('control_number', controlNumber).first('id');
  return row ? Number(row.id) : undefined;
}
