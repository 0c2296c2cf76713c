/**
 * The client's calls (SPEC section 7): profile, submit, track list, one request with its samples.
 * The combined result of a released request is read with getCombinedResult of ./results.ts.
 */
import type { z } from 'zod';
import type { ClientProfile } from '../../server/domain/clientProfile.js';
import type { SubmitRequestPayload } from '../../server/domain/requestPayload.js';
import type { ClientRequestRow, RequestDetail, RequestWithSamples } from '../../server/domain/requestShape.js';
import { getJson, postJson, putJson, segment } from './http.js';

/** GET clientview/{userId} (SPEC section 3, "Client profile"). */
export function getClientProfile(userId: string, signal?: AbortSignal): Promise<ClientProfile> {
  return getJson<ClientProfile>(`/clientview/${segment(userId)}`, signal);
}

/** PUT clientview/{userId}/address: the client's own company address (blank removes it). */
export function setCompanyAddress(userId: string, address: string): Promise<ClientProfile> {
  return putJson<ClientProfile>(`/clientview/${segment(userId)}/address`, { address });
}

/** POST requests/submitrequest/{userId}; answers the stored request (with the server's fee and due date). */
export function submitRequest(userId: string, payload: z.input<typeof SubmitRequestPayload>): Promise<RequestWithSamples> {
  return postJson<RequestWithSamples>(`/requests/submitrequest/${segment(userId)}`, payload);
}

/** GET requests/clientrequest/{userId}: newest first. */
export function listClientRequests(userId: string, signal?: AbortSignal): Promise<ClientRequestRow[]> {
  return getJson<ClientRequestRow[]>(`/requests/clientrequest/${segment(userId)}`, signal);
}

/** GET requests/detail/{requestId}: the request as read, with its samples in row order and any rejection reason. */
export function getRequestDetail(requestId: string | number, signal?: AbortSignal): Promise<RequestDetail> {
  return getJson<RequestDetail>(`/requests/detail/${segment(requestId)}`, signal);
}
