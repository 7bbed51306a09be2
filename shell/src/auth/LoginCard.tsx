import type { ReactNode } from 'react';
import { ToothLogo } from './ToothLogo';

/** The sign-in page's card: the clinic's logo above each step of signing in. */
export function LoginCard({ children }: { children: ReactNode }) {
  return (
    <main className="login">
      <div className="login__card">
        <div className="login__brand">
          <ToothLogo size={44} />
        </div>
        {children}
      </div>
    </main>
  );
}
