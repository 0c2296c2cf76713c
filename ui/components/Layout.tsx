import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { NoticeArea, NoticeProvider } from './Notice.js';

/** Header, the routed screen and the footer, over the blurred page background. */
export function Layout() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <NoticeProvider>
      <div className="app-shell">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" className="site-main" tabIndex={-1}>
          <NoticeArea />
          {/* Pages load lazily with their role's chunk (App.tsx); the frame stays while one loads. */}
          <Suspense
            fallback={
              <p role="status" className="frame-loading">
                Loading...
              </p>
            }
          >
            <Outlet />
          </Suspense>
        </main>
        <Footer />
      </div>
    </NoticeProvider>
  );
}
