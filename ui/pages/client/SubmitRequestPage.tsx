import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { ClientProfile } from '../../../server/domain/clientProfile.js';
import { ANALYTES, PURPOSES, purposeLabel, SAMPLE_CATEGORIES } from '../../../server/domain/catalog.js';
import {
  astPanelsFor,
  buildSubmitPayload,
  SUBMIT_ALERTS,
  submitFormProblems,
  type SubmitFormField,
  type SubmitRequestForm,
} from '../../../server/domain/requestPayload.js';
import { isApiError } from '../../api/http.js';
import { getClientProfile, submitRequest } from '../../api/requests.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { FieldError } from '../../components/FieldError.js';
import { Page } from '../../components/Page.js';
import { RadioChoices } from '../../components/RadioChoices.js';
import { CompanyAddressForm } from '../../components/requests/CompanyAddressForm.js';
import { ContactDetails, type Contact } from '../../components/requests/ContactDetails.js';
import { FeeEstimate } from '../../components/requests/FeeEstimate.js';
import { SampleRows } from '../../components/requests/SampleRows.js';
import { TestSelection, type GramField } from '../../components/requests/TestSelection.js';
import { TextField } from '../../components/TextField.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import { LAB_SHORT_NAME } from '../../labName.js';
import '../../styles/client.css';

type ContactFields = Pick<SubmitRequestForm, keyof Contact>;
/** What the client fills in; the contact fields come from the profile. */
type RequestFields = Omit<SubmitRequestForm, keyof ContactFields>;

const EMPTY_FORM: RequestFields = {
  testingPurpose: '',
  otherTestingPurpose: '',
  sampleCategory: '',
  lotBatchNo: '',
  sampleSource: '',
  productionDate: '',
  expiryDate: '',
  samplingDate: '',
  samplerName: '',
  samples: [''],
  sampleSpecies: [''],
  tests: [],
  gramPositiveAst: '',
  gramNegativeAst: '',
};

/** The contact snapshot a request carries, from the client's profile. Without a username the e-mail identifies the client. */
function contactFields(profile: ClientProfile | undefined): ContactFields {
  return {
    representativeName: profile?.username || profile?.email || '',
    contactNumber: profile?.contactNumber ?? '',
    emailAddress: profile?.email ?? '',
    companyName: profile?.companyName ?? '',
    clientClassification: profile?.classification ?? '',
    ltoNumber: profile?.ltoNumber ?? '',
  };
}

/** /submit-a-request/{userId}: the client panel and the four sections of SPEC section 2, with a live fee estimate. */
export function SubmitRequestPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const profile = useLoad(useCallback((signal: AbortSignal) => getClientProfile(userId, signal), [userId]));
  const [fields, setFields] = useState(EMPTY_FORM);
  const [busy, setBusy] = useState(false);
  // After the first Submit, every problem shows beside its field (and goes as it is fixed).
  const [attempted, setAttempted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState('');
  // The address as last saved here; until then the profile's.
  const [savedAddress, setSavedAddress] = useState<string | null | undefined>(undefined);

  const contact = contactFields(profile.status === 'ready' ? profile.data : undefined);
  const form: SubmitRequestForm = { ...contact, ...fields };
  const set = <K extends keyof RequestFields>(key: K, value: RequestFields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  function toggleTest(code: string, ticked: boolean) {
    setFields((current) => {
      const tests = ticked ? [...current.tests, code] : current.tests.filter((t) => t !== code);
      // Unticking Culture and Sensitivity clears its AST panels.
      return { ...current, tests: ANALYTES.map((a) => a.code).filter((c) => tests.includes(c)), ...astPanelsFor(tests, current, '') };
    });
  }

  const problems = attempted ? submitFormProblems(form) : { messages: [], fields: {} };
  const errorId = (field: SubmitFormField) => `submit-error-${field}`;
  const describedBy = (field: SubmitFormField) => (problems.fields[field] ? errorId(field) : undefined);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    setFailure('');
    if (submitFormProblems(form).messages.length === 0) setConfirming(true);
  }

  async function send() {
    setConfirming(false);
    setBusy(true);
    try {
      await submitRequest(userId, buildSubmitPayload(form, new Date()));
      navigate(`/request-submitted/${userId}`);
    } catch (error) {
      setFailure(isApiError(error) ? error.message : SUBMIT_ALERTS.failed);
      setBusy(false);
    }
  }

  return (
    <Page title="Submit a Request" note="Choose the tests for your samples and submit them for compliance check." width="wide">
      <div className="submit-layout">
        <section className="client-panel" aria-labelledby="client-panel-title">
          <h2 id="client-panel-title">Client Information</h2>
          {profile.status === 'loading' && <p role="status">Loading...</p>}
          {profile.status === 'error' && (
            <p className="form-error" role="alert">
              Your client information could not be loaded: {failureText(profile.error)}
            </p>
          )}
          {profile.status === 'ready' && (
            <>
              <ContactDetails contact={contact} address={savedAddress === undefined ? profile.data.address : savedAddress} />
              <CompanyAddressForm
                userId={userId}
                address={savedAddress === undefined ? profile.data.address : savedAddress}
                onSaved={(saved) => setSavedAddress(saved.address)}
              />
            </>
          )}
          {profile.status !== 'ready' && <ContactDetails contact={contact} />}
          <FieldError id={errorId('contact')} text={problems.fields.contact} />
        </section>

        <form className="request-form" onSubmit={onSubmit} noValidate>
          <fieldset className="form-section" aria-describedby={describedBy('testingPurpose')}>
            <legend>1 Purpose of Testing</legend>
            <FieldError id={errorId('testingPurpose')} text={problems.fields.testingPurpose} />
            <RadioChoices
              name="testingPurpose"
              options={PURPOSES}
              value={fields.testingPurpose}
              onChange={(purpose) => set('testingPurpose', purpose)}
              label={(purpose) => purposeLabel(purpose, LAB_SHORT_NAME)}
            />
            {fields.testingPurpose === 'Others' && (
              <TextField
                label="Specify other purpose"
                value={fields.otherTestingPurpose}
                maxLength={200}
                required
                aria-invalid={problems.fields.otherTestingPurpose ? true : undefined}
                aria-describedby={describedBy('otherTestingPurpose')}
                onValueChange={(v) => set('otherTestingPurpose', v)}
              />
            )}
            <FieldError id={errorId('otherTestingPurpose')} text={problems.fields.otherTestingPurpose} />
          </fieldset>

          <fieldset className="form-section" aria-describedby={describedBy('sampleCategory')}>
            <legend>2 Sample Category</legend>
            <FieldError id={errorId('sampleCategory')} text={problems.fields.sampleCategory} />
            <RadioChoices
              name="sampleCategory"
              options={SAMPLE_CATEGORIES}
              value={fields.sampleCategory}
              onChange={(category) => set('sampleCategory', category)}
            />
          </fieldset>

          <fieldset className="form-section">
            <legend>3 Sample Information</legend>
            <div className="field-grid">
              <TextField label="Lot/Batch No." value={fields.lotBatchNo} maxLength={100} onValueChange={(v) => set('lotBatchNo', v)} />
              <TextField label="Sample Source" value={fields.sampleSource} maxLength={200} onValueChange={(v) => set('sampleSource', v)} />
              <TextField label="Production Date" type="date" value={fields.productionDate} onValueChange={(v) => set('productionDate', v)} />
              <TextField label="Expiry Date" type="date" value={fields.expiryDate} onValueChange={(v) => set('expiryDate', v)} />
              <TextField label="Sampling Date" type="date" value={fields.samplingDate} onValueChange={(v) => set('samplingDate', v)} />
              <TextField label="Sampler Name" value={fields.samplerName} maxLength={200} onValueChange={(v) => set('samplerName', v)} />
            </div>
            <SampleRows
              samples={fields.samples}
              species={fields.sampleSpecies ?? []}
              speciesError={problems.fields.sampleSpecies}
              onChange={(samples, sampleSpecies) => setFields((current) => ({ ...current, samples, sampleSpecies }))}
            />
            <FieldError id={errorId('samples')} text={problems.fields.samples} />
          </fieldset>

          <fieldset className="form-section" aria-describedby={describedBy('tests')}>
            <legend>4 Test Selection</legend>
            <FieldError id={errorId('tests')} text={problems.fields.tests} />
            <TestSelection
              tests={fields.tests}
              onToggle={toggleTest}
              gramPositiveAst={fields.gramPositiveAst}
              gramNegativeAst={fields.gramNegativeAst}
              onGramChange={(field: GramField, value) => set(field, value)}
            />
          </fieldset>

          <FeeEstimate
            tests={fields.tests}
            sampleCount={fields.samples.length}
            gramPositiveAst={fields.gramPositiveAst}
            gramNegativeAst={fields.gramNegativeAst}
          />

          {/* SPEC section 5's messages, all that apply at once; the fields above say what to change. */}
          {(problems.messages.length > 0 || failure) && (
            <div className="form-error" role="alert">
              {[...problems.messages, failure].filter(Boolean).map((text) => (
                <p key={text}>{text}</p>
              ))}
            </div>
          )}
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? 'Submitting...' : 'Submit'}
            </button>
          </div>
        </form>
        {confirming && (
          <ConfirmDialog question={SUBMIT_ALERTS.confirm} confirmLabel="Yes, submit" onConfirm={() => void send()} onCancel={() => setConfirming(false)} />
        )}
      </div>
    </Page>
  );
}
