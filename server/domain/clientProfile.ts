// The client profile of SPEC section 3 ("client view"): what GET clientview/{userId} answers. Pure,
// so the service that reads it and the screens that show it share one shape.
import { z } from 'zod';
import { CompanyAddressField } from './accountRules.js';

export interface ClientProfile {
  username: string | null;
  /** Digits, e.g. 639171234567. */
  contactNumber: string;
  email: string;
  companyName: string;
  ltoNumber: string;
  classification: string;
  /** The company's postal address (not in SPEC's profile; optional, printed on certificates). */
  address: string | null;
}

/** PUT clientview/{userId}/address: the client's own company address; blank removes it. */
export const CompanyAddressInput = z.object({ address: CompanyAddressField });
export type CompanyAddressInput = z.output<typeof CompanyAddressInput>;
