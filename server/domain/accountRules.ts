/**
 * Rules of the account forms (SPEC sections 3, 5 and 9): the registration fields, the contact
 * number's (+63) format, the LTO number, the required-field check and the password rules.
 *
 * PURE: no I/O. The registration form uses the same helpers and schemas as POST /clients and
 * `labctl user add`, so the browser and the server can never disagree about a field.
 */
import { z } from 'zod';

export const COUNTRY_CODE = '63';
/** Digits of a complete number: 63 and ten national digits. */
export const CONTACT_DIGITS = 12;
/** Length of a complete number as shown: '(+63) 917 123 4567'. */
export const CONTACT_NUMBER_LENGTH = 18;
export const CONTACT_PLACEHOLDER = '+63XXX-XXX-XXXX';
export const LTO_MAX = 12;
export const MIDDLE_INITIAL_MAX = 1;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
/** A one-time code (mailed or a reset grant) is valid this long. */
export const CODE_TTL_MINUTES = 10;
/** A new code can be asked for this long after the last one was sent. */
export const RESEND_COOLDOWN_SECONDS = 60;

export const OTHER_CLASSIFICATION = 'Others';
/** The eleven options of the classification list; 'Others' asks for a free text instead. */
export const CLIENT_CLASSIFICATIONS = [
  'Importer',
  'Exporter',
  'Slaughterhouse',
  'Poultry Dressing Plant',
  'Meat Dealer',
  'Meat Processing Plant',
  'Meat Cutting Plant',
  'Consumer',
  'Plant Officer',
  'Cold Storage Warehouse',
  OTHER_CLASSIFICATION,
] as const;

export const REGISTRATION_INCOMPLETE =
  'Please fill in all required fields, ensure contact number is 18 characters long, and client classification is provided.';
export const PASSWORDS_DIFFER = 'Please verify that the password you have input is correct';

/**
 * The digits of a contact number as stored: non-digits dropped, the 63 prefix forced and at most
 * 12 digits. Leading zeros of the national part go too, so the local form 0917... becomes 63917...
 */
export function contactDigits(input: string): string {
  const digits = input.replace(/\D/g, '');
  const national = (digits.startsWith(COUNTRY_CODE) ? digits.slice(COUNTRY_CODE.length) : digits).replace(/^0+/, '');
  return (COUNTRY_CODE + national).slice(0, CONTACT_DIGITS);
}

/**
 * The contact number as the form shows it while typing: '(+63) 917 123 4567' when complete, the
 * groups typed so far before that, and '' when no national digit is left (so the field can be
 * cleared with backspace).
 */
export function formatContactNumber(input: string): string {
  const national = contactDigits(input).slice(COUNTRY_CODE.length);
  if (national === '') return '';
  const groups = [national.slice(0, 3), national.slice(3, 6), national.slice(6)].filter((g) => g !== '');
  return `(+${COUNTRY_CODE}) ${groups.join(' ')}`;
}

/**
 * An LTO number as stored: compatibility forms folded (NFKC, e.g. full-width digits) and upper case.
 * Lengths are checked after this, since upper-casing can lengthen a text ('ß' becomes 'SS').
 */
export const canonicalLto = (input: string): string => input.normalize('NFKC').toUpperCase();

/** LTO numbers as typed into the form: canonical and at most 12 characters. */
export function normalizeLto(input: string): string {
  return canonicalLto(input).slice(0, LTO_MAX);
}

/** The classification sent: the chosen option, or the free text when the option is Others. */
export function classificationValue(option: string, otherText: string): string {
  return option === OTHER_CLASSIFICATION ? otherText : option;
}

/** Change password (SPEC section 5): both entries equal and non-empty. */
export function passwordsMatch(password: string, repeat: string): boolean {
  return password !== '' && password === repeat;
}

// ---------------------------------------------------------------------------------------------
// Field schemas, shared by POST /clients, the reset calls and `labctl user add`.

export const EmailField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'enter an e-mail address')
  .max(254, 'use at most 254 characters')
  .pipe(z.email('enter a valid e-mail address'));

export const PasswordField = z
  .string()
  .min(PASSWORD_MIN, `use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `use at most ${PASSWORD_MAX} characters`);

// No '@' in usernames: a username must never be mistaken for another account's e-mail at login.
export const UsernameField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{3,64}$/, 'use 3 to 64 letters, digits, dots, dashes or underscores');

/** An optional username: missing, null or blank all mean none. */
export const OptionalUsernameField = z
  .string()
  .trim()
  .nullish()
  .transform((v) => v || null)
  .pipe(UsernameField.nullable());

export const NameField = z.string().trim().min(1, 'required').max(100, 'use at most 100 characters');

export const MiddleInitialField = z
  .string()
  .trim()
  .max(MIDDLE_INITIAL_MAX, `use at most ${MIDDLE_INITIAL_MAX} character`)
  .nullish()
  .transform((v) => v || null);

/** Accepts the shown form '(+63) 917 123 4567' or plain digits; gives the stored digits. */
export const ContactNumberField = z
  .string()
  .max(40, 'use at most 40 characters')
  .transform(contactDigits)
  .pipe(z.string().length(CONTACT_DIGITS, 'enter the 10 digits after +63'));

export const CompanyNameField = z.string().trim().min(1, 'required').max(200, 'use at most 200 characters');

export const LtoNumberField = z
  .string()
  .max(200, 'use at most 200 characters')
  .transform((v) => canonicalLto(v).trim())
  .pipe(z.string().min(1, 'required').max(LTO_MAX, `use at most ${LTO_MAX} characters`));

export const ClassificationField = z.string().trim().min(1, 'required').max(100, 'use at most 100 characters');

export const COMPANY_ADDRESS_MAX = 300;
/** The company's postal address, printed on certificates (ISO/IEC 17025 7.8.2.1 e); optional, blank is none. */
export const CompanyAddressField = z
  .string('must be text')
  .trim()
  .max(COMPANY_ADDRESS_MAX, `use at most ${COMPANY_ADDRESS_MAX} characters`)
  .nullish()
  .transform((v) => v || null);

/** A 6-digit code as typed (spaces around it are forgiven). */
export const OtpField = z.string().trim().regex(/^\d{6}$/, 'the code has 6 digits');

// ---------------------------------------------------------------------------------------------
// Registration (POST /clients, SPEC section 7).

/** The payload of POST /clients. Only client accounts register themselves. */
export const RegistrationSchema = z.object({
  user: z.object({
    username: OptionalUsernameField,
    firstName: NameField,
    middleName: MiddleInitialField,
    lastName: NameField,
    contactNumber: ContactNumberField,
    email: EmailField,
    password: PasswordField,
    userType: z.string().trim().toUpperCase().pipe(z.literal('CLIENT', 'only client accounts can register')).optional(),
    deletionStatus: z.string().trim().toUpperCase().pipe(z.literal('ACTIVE', 'a new account is ACTIVE')).optional(),
  }),
  client: z.object({
    companyName: CompanyNameField,
    ltoNo: LtoNumberField,
    classification: ClassificationField,
    address: CompanyAddressField,
  }),
});

export type RegistrationPayload = z.input<typeof RegistrationSchema>;
export type Registration = z.output<typeof RegistrationSchema>;

/** What the registration form holds while it is being filled in. */
export interface RegistrationForm {
  username: string;
  firstName: string;
  middleName: string;
  lastName: string;
  /** As shown: '(+63) 917 123 4567'. */
  contactNumber: string;
  email: string;
  password: string;
  companyName: string;
  ltoNo: string;
  /** The chosen option ('' until one is chosen). */
  classification: string;
  /** The free text that replaces the classification when the option is Others. */
  otherClassification: string;
  /** Optional company postal address. */
  address: string;
}

/** A field of the registration form a problem is shown beside. */
export type RegistrationField = keyof RegistrationForm;

// SPEC section 5: the fields the registration alert insists on, and the shown number's length; each
// with what is said beside it when it is missing.
const REQUIRED_REGISTRATION: ReadonlyArray<[RegistrationField, (form: RegistrationForm) => boolean, string]> = [
  ['firstName', (f) => f.firstName.trim() !== '', 'Enter your first name.'],
  ['lastName', (f) => f.lastName.trim() !== '', 'Enter your last name.'],
  ['contactNumber', (f) => f.contactNumber.length === CONTACT_NUMBER_LENGTH, 'Enter the whole contact number, (+63) XXX XXX XXXX.'],
  ['email', (f) => f.email.trim() !== '', 'Enter your e-mail address.'],
  ['password', (f) => f.password.trim() !== '', 'Enter a password.'],
  ['companyName', (f) => f.companyName.trim() !== '', 'Enter the company name.'],
  ['ltoNo', (f) => f.ltoNo.trim() !== '', 'Enter the LTO number.'],
  ['classification', (f) => f.classification.trim() !== '', 'Choose a classification.'],
  ['otherClassification', (f) => f.classification !== OTHER_CLASSIFICATION || f.otherClassification.trim() !== '', 'Specify the classification.'],
];

/** Every required field that is missing or short, with what to say beside it (all at once, in form order). */
export function registrationProblems(form: RegistrationForm): Partial<Record<RegistrationField, string>> {
  return Object.fromEntries(REQUIRED_REGISTRATION.filter(([, ok]) => !ok(form)).map(([field, , message]) => [field, message]));
}

/** Whether the form may be sent; otherwise the form shows REGISTRATION_INCOMPLETE and each field its problem. */
export function registrationComplete(form: RegistrationForm): boolean {
  return Object.keys(registrationProblems(form)).length === 0;
}

/** The JSON body of POST /clients for a filled-in form (userType CLIENT, deletionStatus ACTIVE). */
export function registrationPayload(form: RegistrationForm): RegistrationPayload {
  return {
    user: {
      username: form.username.trim(),
      firstName: form.firstName.trim(),
      middleName: form.middleName.trim(),
      lastName: form.lastName.trim(),
      contactNumber: form.contactNumber,
      email: form.email.trim(),
      password: form.password,
      userType: 'CLIENT',
      deletionStatus: 'ACTIVE',
    },
    client: {
      companyName: form.companyName.trim(),
      ltoNo: normalizeLto(form.ltoNo.trim()),
      classification: classificationValue(form.classification, form.otherClassification).trim(),
      // Optional, beyond SPEC's payload: sent only when given.
      ...(form.address.trim() ? { address: form.address.trim() } : {}),
    },
  };
}
