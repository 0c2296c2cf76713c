import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_CLASSIFICATIONS,
  CONTACT_NUMBER_LENGTH,
  RegistrationSchema,
  classificationValue,
  contactDigits,
  formatContactNumber,
  normalizeLto,
  passwordsMatch,
  registrationComplete,
  registrationProblems,
  registrationPayload,
  type RegistrationForm,
} from '../../server/domain/accountRules.js';

const complete: RegistrationForm = {
  username: '',
  firstName: 'Nora',
  middleName: '',
  lastName: 'Villanueva',
  contactNumber: '(+63) 917 555 0101',
  email: 'nora@example.test',
  password: 'a long passphrase',
  companyName: 'Villanueva Meats',
  ltoNo: 'LTO-77',
  classification: 'Meat Dealer',
  otherClassification: '',
  address: '',
};

describe('contact number', () => {
  it.each([
    ['', ''],
    ['9', '(+63) 9'],
    ['917', '(+63) 917'],
    ['9171', '(+63) 917 1'],
    ['917123', '(+63) 917 123'],
    ['9171234', '(+63) 917 123 4'],
    ['9171234567', '(+63) 917 123 4567'],
    ['+63 917 123 4567', '(+63) 917 123 4567'],
    ['639171234567', '(+63) 917 123 4567'],
    ['09171234567', '(+63) 917 123 4567'],
    ['(+63) 917 123 45678', '(+63) 917 123 4567'],
    ['+63XXX-917', '(+63) 917'],
    ['(+63) ', ''],
    ['63', ''],
    ['abc', ''],
  ])('%j is shown as %j', (typed, shown) => {
    expect(formatContactNumber(typed)).toBe(shown);
  });

  it('keeps digits only, forces the 63 prefix and at most 12 digits', () => {
    expect(contactDigits('(+63) 917 123 4567')).toBe('639171234567');
    expect(contactDigits('0917-123-4567')).toBe('639171234567');
    expect(contactDigits('9171234567999')).toBe('639171234567');
    expect(contactDigits('')).toBe('63');
  });

  it('a complete number is 18 characters; formatting is stable and never longer', () => {
    expect(formatContactNumber('9171234567')).toHaveLength(CONTACT_NUMBER_LENGTH);
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const shown = formatContactNumber(typed);
        expect(shown.length).toBeLessThanOrEqual(CONTACT_NUMBER_LENGTH);
        expect(formatContactNumber(shown)).toBe(shown);
        expect(shown === '' || /^\(\+63\) \d{1,3}( \d{1,3}( \d{1,4})?)?$/.test(shown)).toBe(true);
      }),
    );
  });
});

describe('LTO number and classification', () => {
  it('upper-cases and cuts the LTO number at 12 characters', () => {
    expect(normalizeLto('lto-2026-001x')).toBe('LTO-2026-001');
    expect(normalizeLto('abc')).toBe('ABC');
  });

  it('lists the eleven classifications, Others last; Others takes the free text', () => {
    expect(CLIENT_CLASSIFICATIONS).toHaveLength(11);
    expect(CLIENT_CLASSIFICATIONS.at(-1)).toBe('Others');
    expect(classificationValue('Importer', 'ignored')).toBe('Importer');
    expect(classificationValue('Others', 'Feed mill')).toBe('Feed mill');
  });
});

describe('registration required fields (SPEC section 5)', () => {
  it('accepts a complete form without username and middle initial', () => {
    expect(registrationComplete(complete)).toBe(true);
  });

  it.each(['email', 'password', 'firstName', 'lastName', 'companyName', 'ltoNo', 'contactNumber', 'classification'] as const)(
    'blocks a form whose %s is blank',
    (field) => {
      expect(registrationComplete({ ...complete, [field]: '   ' })).toBe(false);
    },
  );

  it('blocks a contact number that is not 18 characters, and Others without its text', () => {
    expect(registrationComplete({ ...complete, contactNumber: '(+63) 917 555 010' })).toBe(false);
    expect(registrationComplete({ ...complete, classification: 'Others', otherClassification: ' ' })).toBe(false);
    expect(registrationComplete({ ...complete, classification: 'Others', otherClassification: 'Feed mill' })).toBe(true);
  });

  it('names every missing field at once, each with what to do, in form order', () => {
    expect(registrationProblems(complete)).toEqual({});
    const empty = { ...complete, firstName: '', lastName: ' ', contactNumber: '(+63) 917', email: '', password: '', companyName: '', ltoNo: '', classification: 'Others', otherClassification: '' };
    expect(registrationProblems(empty)).toEqual({
      firstName: 'Enter your first name.',
      lastName: 'Enter your last name.',
      contactNumber: 'Enter the whole contact number, (+63) XXX XXX XXXX.',
      email: 'Enter your e-mail address.',
      password: 'Enter a password.',
      companyName: 'Enter the company name.',
      ltoNo: 'Enter the LTO number.',
      otherClassification: 'Specify the classification.',
    });
    expect(Object.keys(registrationProblems({ ...complete, classification: '' }))).toEqual(['classification']);
  });

  it('builds the POST /clients payload the server schema accepts', () => {
    const payload = registrationPayload({ ...complete, ltoNo: 'lto-77', classification: 'Others', otherClassification: ' Feed mill ' });
    expect(payload).toEqual({
      user: {
        username: '',
        firstName: 'Nora',
        middleName: '',
        lastName: 'Villanueva',
        contactNumber: '(+63) 917 555 0101',
        email: 'nora@example.test',
        password: 'a long passphrase',
        userType: 'CLIENT',
        deletionStatus: 'ACTIVE',
      },
      client: { companyName: 'Villanueva Meats', ltoNo: 'LTO-77', classification: 'Feed mill' },
    });
    const parsed = RegistrationSchema.parse(payload);
    expect(parsed.user).toMatchObject({ username: null, middleName: null, contactNumber: '639175550101' });
    expect(parsed.client.address).toBeNull();
  });

  it('sends the optional company address only when one is given', () => {
    const payload = registrationPayload({ ...complete, address: '  12 Mabini St., Quezon City ' });
    expect(payload.client).toEqual({ companyName: 'Villanueva Meats', ltoNo: 'LTO-77', classification: 'Meat Dealer', address: '12 Mabini St., Quezon City' });
    expect(RegistrationSchema.safeParse(registrationPayload({ ...complete, address: 'x'.repeat(301) })).error?.issues.map((i) => i.path.join('.'))).toEqual(['client.address']);
  });
});

describe('RegistrationSchema', () => {
  it('reports every bad field with its path', () => {
    const result = RegistrationSchema.safeParse({
      user: { email: 'x', password: 'short', firstName: '', lastName: 'L', contactNumber: '123', middleName: 'AB', username: 'no spaces', userType: 'staff' },
      client: { companyName: '', ltoNo: 'X'.repeat(13), classification: '' },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual([
      'client.classification', 'client.companyName', 'client.ltoNo', 'user.contactNumber', 'user.email', 'user.firstName',
      'user.middleName', 'user.password', 'user.userType', 'user.username',
    ]);
  });

  it('refuses an @ in a username, so it is never taken for an e-mail', () => {
    const result = RegistrationSchema.safeParse(registrationPayload({ ...complete, username: 'victim@example.test' }));
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['user.username']);
  });
});

describe('change password', () => {
  it('needs two equal, non-empty entries', () => {
    expect(passwordsMatch('secret pass', 'secret pass')).toBe(true);
    expect(passwordsMatch('', '')).toBe(false);
    expect(passwordsMatch('secret pass', 'secret pas')).toBe(false);
  });
});
