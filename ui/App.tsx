import { Route, Routes } from 'react-router-dom';
import { DISCIPLINES, testerRoleOf } from '../server/domain/roles.js';
import { Layout } from './components/Layout.js';
import { PublicOnly } from './components/PublicOnly.js';
import { RequireRole } from './components/RequireRole.js';
import { ChangePassPage } from './pages/accounts/ChangePassPage.js';
import { ForgetPage } from './pages/accounts/ForgetPage.js';
import { LoginPage } from './pages/accounts/LoginPage.js';
import { NotInSystemPage } from './pages/accounts/NotInSystemPage.js';
import { PasswordChangedPage } from './pages/accounts/PasswordChangedPage.js';
import { RegisteredPage } from './pages/accounts/RegisteredPage.js';
import { RegisterPage } from './pages/accounts/RegisterPage.js';
import { TfaForgotPassPage } from './pages/accounts/TfaForgotPassPage.js';
import { TfaPage } from './pages/accounts/TfaPage.js';
import { TfaVerifyPage } from './pages/accounts/TfaVerifyPage.js';
import { ClientHomePage } from './pages/client/ClientHomePage.js';
import { GuidePage } from './pages/client/GuidePage.js';
import { RequestResultsPage } from './pages/client/RequestResultsPage.js';
import { RequestReviewPage } from './pages/client/RequestReviewPage.js';
import { RequestSubmittedPage } from './pages/client/RequestSubmittedPage.js';
import { SubmitRequestPage } from './pages/client/SubmitRequestPage.js';
import { TrackMyRequestPage } from './pages/client/TrackMyRequestPage.js';
import { ControlNumberPage } from './pages/staff/ControlNumberPage.js';
import { ForReleasePage } from './pages/staff/ForReleasePage.js';
import { PendingRequestsPage } from './pages/staff/PendingRequestsPage.js';
import { ReleaseDatabasePage } from './pages/staff/ReleaseDatabasePage.js';
import { RequestAdditionalInfoPage } from './pages/staff/RequestAdditionalInfoPage.js';
import { RequestDetailsPage } from './pages/staff/RequestDetailsPage.js';
import { StaffHomePage } from './pages/staff/StaffHomePage.js';
import { ForTestingPage } from './pages/tester/ForTestingPage.js';
import { TesterHomePage } from './pages/tester/TesterHomePage.js';
import { TestingDatabasePage } from './pages/tester/TestingDatabasePage.js';
import { TestResultsPage } from './pages/tester/TestResultsPage.js';

/**
 * Every route of SPEC section 2. Public screens sit behind PublicOnly (a logged-in user goes to its
 * home), role screens behind RequireRole (SPEC section 6). Unknown paths show the login screen.
 * Needs a router and a SessionProvider around it (see main.tsx).
 */
export function App() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/tfa/:username" element={<TfaPage />} />
          <Route path="/forget" element={<ForgetPage />} />
          <Route path="/tfa-forgot-pass/:email" element={<TfaForgotPassPage />} />
          <Route path="/not-in-system" element={<NotInSystemPage />} />
          <Route path="/change-pass/:email" element={<ChangePassPage />} />
          <Route path="/password-changed" element={<PasswordChangedPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/tfaverify" element={<TfaVerifyPage />} />
          <Route path="/registered" element={<RegisteredPage />} />
          <Route path="*" element={<LoginPage />} />
        </Route>

        <Route element={<RequireRole />}>
          {/* client */}
          <Route path="/home/client/:userId" element={<ClientHomePage />} />
          <Route path="/submit-a-request/:userId" element={<SubmitRequestPage />} />
          <Route path="/request-submitted/:userId" element={<RequestSubmittedPage />} />
          <Route path="/track-my-request/:userId" element={<TrackMyRequestPage />} />
          <Route path="/request-review/:userId/:requestId" element={<RequestReviewPage />} />
          <Route path="/request-results/:userId/:requestId" element={<RequestResultsPage />} />
          <Route path="/guide/:userId" element={<GuidePage />} />

          {/* staff (and admin) */}
          <Route path="/home/staff/:userId" element={<StaffHomePage />} />
          <Route path="/pending-requests/:userId" element={<PendingRequestsPage />} />
          <Route path="/request-details/:userId/:requestId" element={<RequestDetailsPage />} />
          <Route path="/request-control-number/:userId/:requestId" element={<ControlNumberPage />} />
          <Route path="/approved/:userId" element={<ControlNumberPage />} />
          <Route path="/request-additional-info/:userId/:requestId" element={<RequestAdditionalInfoPage />} />
          <Route path="/for-release/:userId" element={<ForReleasePage />} />
          <Route path="/receive-release-database/:userId" element={<ReleaseDatabasePage />} />

          {/* testers, one set per discipline */}
          {DISCIPLINES.flatMap((d) => [
            <Route
              key={`home-${d}`}
              path={`/home/${testerRoleOf(d)}/:userId`}
              element={<TesterHomePage key={d} discipline={d} />}
            />,
            <Route
              key={`for-testing-${d}`}
              path={`/for-testing-${d}/:userId`}
              element={<ForTestingPage key={d} discipline={d} />}
            />,
            <Route
              key={`test-results-${d}`}
              path={`/test-results-${d}/:userId`}
              element={<TestResultsPage key={d} discipline={d} />}
            />,
            <Route
              key={`testing-database-${d}`}
              path={`/testing-database-${d}/:userId`}
              element={<TestingDatabasePage key={d} discipline={d} />}
            />,
          ])}
        </Route>
      </Route>
    </Routes>
  );
}
