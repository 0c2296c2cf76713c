import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  CLIENT_CLASSIFICATIONS,
  COMPANY_ADDRESS_MAX,
  CONTACT_NUMBER_LENGTH,
  CONTACT_PLACEHOLDER,
  LTO_MAX,
  MIDDLE_INITIAL_MAX,
  OTHER_CLASSIFICATION,
  REGISTRATION_INCOMPLETE,
  formatContactNumber,
  normalizeLto,
  registrationComplete,
  registrationPayload,
  registrationProblems,
  type RegistrationForm,
} from '../../../server/domain/accountRules.js';
import { registerClient } from '../../api/accounts.js';
import { AccountForm, LINKS } from '../../components/accounts/AccountForm.js';
import { EmailField } from '../../components/accounts/EmailField.js';
import { serverMessage } from '../../components/accounts/refusal.js';
import { SelectField } from '../../components/accounts/SelectField.js';
import { Page } from '../../components/Page.js';
import { PasswordField } from '../../components/PasswordField.js';
import { TextField } from '../../components/TextField.js';
import type { TfaVerifyState } from './TfaVerifyPage.js';

const EMPTY_FORM: RegistrationForm = {
  username: '',
  firstName: '',
  middleName: '',
  lastName: '',
  contactNumber: '',
  email: '',
  password: '',
  companyName: '',
  ltoNo: '',
  classification: '',
  otherClassification: '',
  address: '',
};

/** /register: the client registration form of SPEC sections 3 and 5; then the code on /tfaverify. */
export function RegisterPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState(EMPTY_FORM);
  const set = (field: keyof RegistrationForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  // After the first Register, every missing field says so beside it, all at once (and each goes as it is fixed).
  const [attempted, setAttempted] = useState(false);
  const problems = attempted ? registrationProblems(form) : {};

  return (
    <Page title="Register" note="Create a client account to submit testing requests." width="medium">
      <AccountForm
        label="Register"
        busyLabel="Registering..."
        links={[LINKS.logIn, LINKS.forget]}
        // The spec's own message in the form and each field's beside it, not the browser's bubbles.
        noValidate
        check={() => {
          setAttempted(true);
          return registrationComplete(form) ? null : REGISTRATION_INCOMPLETE;
        }}
        send={() => registerClient(registrationPayload(form))}
        done={(registered) => navigate('/tfaverify', { state: { email: registered.email } satisfies TfaVerifyState })}
        failed={(error) => serverMessage(error) ?? 'Registration failed.'}
      >
        <fieldset className="form">
          <legend>Your details</legend>
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            hint="Optional. You can log in with it instead of your e-mail."
            value={form.username}
            onValueChange={set('username')}
          />
          <TextField label="First Name" name="firstName" error={problems.firstName} autoComplete="given-name" aria-required value={form.firstName} onValueChange={set('firstName')} />
          <TextField
            label="Middle Initial"
            name="middleName"
            autoComplete="additional-name"
            maxLength={MIDDLE_INITIAL_MAX}
            hint="Optional."
            value={form.middleName}
            onValueChange={(v) => set('middleName')(v.slice(0, MIDDLE_INITIAL_MAX))}
          />
          <TextField label="Last Name" name="lastName" error={problems.lastName} autoComplete="family-name" aria-required value={form.lastName} onValueChange={set('lastName')} />
          <TextField
            label="Contact Number"
            name="contactNumber"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            aria-required
            placeholder={CONTACT_PLACEHOLDER}
            maxLength={CONTACT_NUMBER_LENGTH}
            hint="Mobile or landline; shown as (+63) XXX XXX XXXX."
            error={problems.contactNumber}
            value={form.contactNumber}
            onValueChange={(v) => set('contactNumber')(formatContactNumber(v))}
          />
          <EmailField error={problems.email} aria-required value={form.email} onValueChange={set('email')} />
          <PasswordField label="Password" name="password" error={problems.password} autoComplete="new-password" aria-required value={form.password} onValueChange={set('password')} />
        </fieldset>

        <fieldset className="form">
          <legend>Company</legend>
          <TextField label="Company Name" name="companyName" error={problems.companyName} autoComplete="organization" aria-required value={form.companyName} onValueChange={set('companyName')} />
          <TextField
            label="LTO Number"
            name="ltoNo"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={LTO_MAX}
            aria-required
            error={problems.ltoNo}
            value={form.ltoNo}
            onValueChange={(v) => set('ltoNo')(normalizeLto(v))}
          />
          <SelectField
            label="Client Classification"
            name="classification"
            aria-required
            options={CLIENT_CLASSIFICATIONS}
            placeholder="Select a classification"
            error={problems.classification}
            value={form.classification}
            onValueChange={set('classification')}
          />
          {form.classification === OTHER_CLASSIFICATION && (
            <TextField
              label="Specify Classification"
              name="otherClassification"
              aria-required
              error={problems.otherClassification}
              value={form.otherClassification}
              onValueChange={set('otherClassification')}
            />
          )}
          <TextField
            label="Address"
            name="address"
            autoComplete="street-address"
            maxLength={COMPANY_ADDRESS_MAX}
            hint="Optional. The company's postal address, printed on your certificates of analysis."
            value={form.address}
            onValueChange={set('address')}
          />
        </fieldset>
      </AccountForm>
    </Page>
  );
}
