// The signed release (DESIGN.md section 10): the releasing staff member types their password again;
// the release and the first report (signer, time, meaning) are one transaction, and the release's
// audit entry keeps the signature too (the request's timeline shows who signed, and what it means).
import { RELEASE_MEANING } from '../../domain/certificate.js';
import { can, type Actor } from '../../domain/policies.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { forbidden } from '../../errors.js';
import { releaseRequest, type AuditMeta, type DeskDeps } from '../requests/transitions.js';
import { issueReport } from './reports.js';
import { checkSignature } from './signature.js';

export async function signedRelease(
  deps: DeskDeps,
  actor: Actor,
  requestId: number,
  password: string,
  meta: AuditMeta = {},
): Promise<{ requestStatus: RequestStatus; reportNumber: string }> {
  if (!can(actor, 'request:release')) throw forbidden();
  const signer = await checkSignature(deps, actor, password, 'nothing was released', meta.ip);
  let reportNumber = '';
  const released = await releaseRequest(deps, actor, requestId, meta, async (trx) => {
    const issued = await issueReport(trx, deps.clock, { requestId, signer, meaning: RELEASE_MEANING, ip: meta.ip });
    reportNumber = issued.reportNumber;
    return { audit: { signature: { signerName: signer.name, signedAt: issued.issuedAt, meaning: RELEASE_MEANING, reportNumber } } };
  });
  return { ...released, reportNumber };
}
