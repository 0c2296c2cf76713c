// The client profile of SPEC section 3 ("client view"): what GET clientview/{userId} answers. Pure,
// so the service that reads it and the screens that show it share one shape.

export interface ClientProfile {
  username: string | null;
  /** Digits, e.g. 639171234567. */
  contactNumber: string;
  email: string;
  companyName: string;
  ltoNumber: string;
  classification: string;
}
