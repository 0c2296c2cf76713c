/**
 * The client's calls (SPEC section 7): profile, submit, track list, one request with its samples,
 * the combined result of a released request.
 */
import type { z } from 'zod';
import type { SubmitRequestPayload } from '../../server/domain/requestPayload.js';
import type { RequestView } from '../../server/domain/requestShape.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import type { CombinedResult } from '../../server/domain/resultShape.js';
import { getJson, postJson, segment } from './http.js';

/** GET clientview/{userId} (SPEC section 3, "Client profile"). */
export interface ClientProfile {
  username: string | null;
  contactNumber: string;
  email: string;
  companyName: string;
  ltoNumber: string;
  classification: string;
}

export interface RequestSample {
  sampleId: number;
  sampleTypeDescription: string;
}

/** A row of the track list. */
export interface ClientRequestSummary {
  requestId: number;
  controlNumber: string | null;
  /** ISO timestamp. */
  submissionDate: string;
  requestStatus: RequestStatus;
}

/** GET requests/detail/{requestId}: the request as read, with its samples in row order. */
export type RequestDetail = RequestView & { samples: (RequestSample & { position: number })[] };

export function getClientProfile(userId: string, signal?: AbortSignal): Promise<ClientProfile> {
  return getJson<ClientProfile>(`/clientview/${segment(userId)}`, signal);
}

/** POST requests/submitrequest/{userId}; answers the stored request (with the server's fee and due date). */
export function submitRequest(userId: string, payload: z.input<typeof SubmitRequestPayload>): Promise<RequestDetail> {
  return postJson<RequestDetail>(`/requests/submitrequest/${segment(userId)}`, payload);
}

/** GET requests/clientrequest/{userId}: newest first. */
export function listClientRequests(userId: string, signal?: AbortSignal): Promise<ClientRequestSummary[]> {
  return getJson<ClientRequestSummary[]>(`/requests/clientrequest/${segment(userId)}`, signal);
}

export function getRequestDetail(requestId: string | number, signal?: AbortSignal): Promise<RequestDetail> {
  return getJson<RequestDetail>(`/requests/detail/${segment(requestId)}`, signal);
}

/** GET getResult/{requestId}: refused to a client until the request is released. */
export function getCombinedResult(requestId: string | number, signal?: AbortSignal): Promise<CombinedResult> {
  return getJson<CombinedResult>(`/getResult/${segment(requestId)}`, signal);
}
