/**
 * The receive-and-release desk's calls (SPEC section 7): pending requests, approve (then createresult,
 * as the spec's sequence has it), reject, release, control numbers, and the additional-information exchange of a request.
 */
import type { RequestMessage } from '../../server/domain/requestMessages.js';
import type { RequestDetail, RequestView } from '../../server/domain/requestShape.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import { getJson, getText, postJson, putJson, segment } from './http.js';

/** GET requests/pending: oldest first. */
export function listPendingRequests(signal?: AbortSignal): Promise<RequestView[]> {
  return getJson<RequestView[]>('/requests/pending', signal);
}

/** GET requests/pendingrequest/{requestId}: the request with its flags, samples and any rejection reason. */
export function getPendingRequest(requestId: string | number, signal?: AbortSignal): Promise<RequestDetail> {
  return getJson<RequestDetail>(`/requests/pendingrequest/${segment(requestId)}`, signal);
}

/**
 * PUT requests/approve/{requestId}, then POST createresult/{requestId} with the spec's payload (the
 * server created the result rows on approval; the call only confirms). Answers the control number.
 */
export async function approveRequest(requestId: string | number, staffUserId: string): Promise<{ controlNumber: string }> {
  const approved = await putJson<{ controlNumber: string }>(`/requests/approve/${segment(requestId)}`);
  await postJson(`/createresult/${segment(requestId)}`, {
    testerId: Number(staffUserId),
    chemElisaTestResults: [],
    chemMicrobialTestResults: [],
    molBioTestResults: [],
    microbioTestResults: [],
  });
  return approved;
}

/** PUT requests/reject/{requestId} with the reason the client is told (stored and e-mailed). */
export function rejectRequest(requestId: string | number, reason: string): Promise<{ requestStatus: RequestStatus }> {
  return putJson(`/requests/reject/${segment(requestId)}`, { reason });
}

/** PUT requests/approveRelease/{requestId}: a signature, so the releasing staff member's password goes with it. */
export function releaseRequest(requestId: string | number, password: string): Promise<{ requestStatus: RequestStatus; reportNumber: string }> {
  return putJson(`/requests/approveRelease/${segment(requestId)}`, { password });
}

/** GET requests/ctrlnumber/{requestId}: plain text. */
export async function getControlNumber(requestId: string | number, signal?: AbortSignal): Promise<string> {
  return (await getText(`/requests/ctrlnumber/${segment(requestId)}`, signal)).trim();
}

/** GET requests/last-approved: the control number of the request the signed-in staff member approved last. */
export async function getLastApprovedControlNumber(signal?: AbortSignal): Promise<string> {
  return (await getText('/requests/last-approved', signal)).trim();
}

/** GET requests/messages/{requestId}: oldest first; staff and the owning client. */
export function listRequestMessages(requestId: string | number, signal?: AbortSignal): Promise<RequestMessage[]> {
  return getJson<RequestMessage[]>(`/requests/messages/${segment(requestId)}`, signal);
}

/** POST requests/messages/{requestId}: a question when staff send it, a reply when the owning client does. */
export function postRequestMessage(requestId: string | number, body: string): Promise<RequestMessage> {
  return postJson<RequestMessage>(`/requests/messages/${segment(requestId)}`, { body });
}
