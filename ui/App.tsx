import { Route, Routes } from 'react-router-dom';
import { DISCIPLINES, screenRole, testerRoleOf, type Role } from '../server/domain/roles.js';
import { Layout } from './components/Layout.js';
import { PublicOnly } from './components/PublicOnly.js';
import { RequireRole } from './components/RequireRole.js';
import { lazyPage } from './lazyPage.js';
import { LoginPage } from './pages/accounts/LoginPage.js';

// The login screen is in the entry bundle (it is the first paint); every other page loads with its
// role area's chunk on first use.
const ChangePassPage = lazyPage(() => import('./pages/accounts/ChangePassPage.js'), 'ChangePassPage');
const ForgetPage = lazyPage(() => import('./pages/accounts/ForgetPage.js'), 'ForgetPage');
const NotInSystemPage = lazyPage(() => import('./pages/accounts/NotInSystemPage.js'), 'NotInSystemPage');
const PasswordChangedPage = lazyPage(() => import('./pages/accounts/PasswordChangedPage.js'), 'PasswordChangedPage');
const RegisteredPage = lazyPage(() => import('./pages/accounts/RegisteredPage.js'), 'RegisteredPage');
const RegisterPage = lazyPage(() => import('./pages/accounts/RegisterPage.js'), 'RegisterPage');
const TfaForgotPassPage = lazyPage(() => import('./pages/accounts/TfaForgotPassPage.js'), 'TfaForgotPassPage');
const TfaPage = lazyPage(() => import('./pages/accounts/TfaPage.js'), 'TfaPage');
const TfaVerifyPage = lazyPage(() => import('./pages/accounts/TfaVerifyPage.js'), 'TfaVerifyPage');
const loadClientHome = () => import('./pages/client/ClientHomePage.js');
const loadStaffHome = () => import('./pages/staff/StaffHomePage.js');
const loadTesterHome = () => import('./pages/tester/TesterHomePage.js');
const ClientHomePage = lazyPage(loadClientHome, 'ClientHomePage');
const GuidePage = lazyPage(() => import('./pages/client/GuidePage.js'), 'GuidePage');
const RequestResultsPage = lazyPage(() => import('./pages/client/RequestResultsPage.js'), 'RequestResultsPage');
const RequestReviewPage = lazyPage(() => import('./pages/client/RequestReviewPage.js'), 'RequestReviewPage');
const RequestSubmittedPage = lazyPage(() => import('./pages/client/RequestSubmittedPage.js'), 'RequestSubmittedPage');
const SubmitRequestPage = lazyPage(() => import('./pages/client/SubmitRequestPage.js'), 'SubmitRequestPage');
const TrackMyRequestPage = lazyPage(() => import('./pages/client/TrackMyRequestPage.js'), 'TrackMyRequestPage');
const ControlNumberPage = lazyPage(() => import('./pages/staff/ControlNumberPage.js'), 'ControlNumberPage');
const VerifyCertificatePage = lazyPage(() => import('./pages/public/VerifyCertificatePage.js'), 'VerifyCertificatePage');
const ForReleasePage = lazyPage(() => import('./pages/staff/ForReleasePage.js'), 'ForReleasePage');
const PendingRequestsPage = lazyPage(() => import('./pages/staff/PendingRequestsPage.js'), 'PendingRequestsPage');
const ReleasedRequestsPage = lazyPage(() => import('./pages/staff/ReleasedRequestsPage.js'), 'ReleasedRequestsPage');
const ReleaseDatabasePage = lazyPage(() => import('./pages/staff/ReleaseDatabasePage.js'), 'ReleaseDatabasePage');
const RequestAdditionalInfoPage = lazyPage(() => import('./pages/staff/RequestAdditionalInfoPage.js'), 'RequestAdditionalInfoPage');
const RequestDetailsPage = lazyPage(() => import('./pages/staff/RequestDetailsPage.js'), 'RequestDetailsPage');
const SpecificationsPage = lazyPage(() => import('./pages/staff/SpecificationsPage.js'), 'SpecificationsPage');
const StaffHomePage = lazyPage(loadStaffHome, 'StaffHomePage');
const AuditTrailPage = lazyPage(() => import('./pages/traceability/AuditTrailPage.js'), 'AuditTrailPage');
const RequestTimelinePage = lazyPage(() => import('./pages/traceability/RequestTimelinePage.js'), 'RequestTimelinePage');
const TurnaroundPage = lazyPage(() => import('./pages/traceability/TurnaroundPage.js'), 'TurnaroundPage');
const ForTestingPage = lazyPage(() => import('./pages/tester/ForTestingPage.js'), 'ForTestingPage');
const TesterHomePage = lazyPage(loadTesterHome, 'TesterHomePage');
const TestingDatabasePage = lazyPage(() => import('./pages/tester/TestingDatabasePage.js'), 'TestingDatabasePage');
const TestResultsPage = lazyPage(() => import('./pages/tester/TestResultsPage.js'), 'TestResultsPage');

/**
 * Starts loading the chunk of a signed-in role's screens (with the code they share), so that
 * opening or reloading one of its screens fetches it while GET /me confirms the login rather than
 * after. A failure is left to the screen's own load, which reports it.
 */
export function preloadScreensOf(role: Role | undefined): void {
  if (!role) return;
  const area = screenRole(role);
  const load = area === 'client' ? loadClientHome : area === 'staff' ? loadStaffHome : loadTesterHome;
  load().catch(() => undefined);
}

/**
 * Every route of SPEC section 2. Public screens sit behind PublicOnly (a logged-in user goes to its
 * home), role screens behind RequireRole (SPEC section 6). Unknown paths show the login screen.
 * Needs a router and a SessionProvider around it (see main.tsx).
 */
export function App() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {/* public whether signed in or not: what a certificate's QR code opens */}
        <Route path="/verify/:token" element={<VerifyCertificatePage />} />
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
          <Route path="/released/:userId" element={<ReleasedRequestsPage />} />
          <Route path="/specifications/:userId" element={<SpecificationsPage />} />

          {/* traceability (issue 15): the timeline is the staff's and the owning client's */}
          <Route path="/request-timeline/:userId/:requestId" element={<RequestTimelinePage />} />
          <Route path="/audit-trail/:userId" element={<AuditTrailPage />} />
          <Route path="/turnaround/:userId" element={<TurnaroundPage />} />

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
