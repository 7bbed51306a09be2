import {
  LOGIN_REQUIRED_MESSAGE,
  loginRequestSchema,
  type SessionGrant,
  type SignInStep,
  useAuthStore,
} from '@dental/shared/session';
import { type FormEvent, lazy, Suspense, useCallback, useState } from 'react';
import { type Location, Navigate, useLocation, useNavigate } from 'react-router-dom';
import '../styles/login.css';
import { ChoosePasswordStep } from './ChoosePasswordStep';
import { LoginCard } from './LoginCard';
import { SecondFactorStep } from './SecondFactorStep';
import { SignInField, SignInForm, useSignInStep } from './SignInField';

// The kit (a QR code, forms) loads only for a user the clinic requires to set up a second factor.
const EnrolSecondFactor = lazy(() => import('./EnrolSecondFactor'));

const DEMO_ACCOUNTS = [
  { role: 'Admin', username: 'admin', password: 'admin123' },
  { role: 'Receptionist', username: 'receptionist', password: 'receptionist123' },
  { role: 'Dentist', username: 'dentist', password: 'dentist123' },
];

function originOf(state: unknown): string {
  const from = (state as { from?: Location } | null)?.from;
  if (!from || from.pathname === '/login') return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** Sign in (docs/product.md, Screens: Login screen). Kept free of the UI kit so the first page stays light. */
export function LoginPage() {
  const status = useAuthStore((state) => state.status);
  const login = useAuthStore((state) => state.login);
  const finishEnrolment = useAuthStore((state) => state.finishEnrolment);
  const notice = useAuthStore((state) => state.notice);
  const navigate = useNavigate();
  const location = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [showForgotHelp, setShowForgotHelp] = useState(false);
  const passwordStep = useSignInStep();
  const { submitting, error, reset } = passwordStep;
  /** After the password, the second step the server asked for, if any. */
  const [secondStep, setSecondStep] = useState<Exclude<SignInStep, { kind: 'signedIn' }> | null>(null);

  const restart = useCallback(
    (message: string | null) => {
      setSecondStep(null);
      setPassword('');
      reset(message);
    },
    [reset],
  );
  const signedIn = () => navigate(originOf(location.state), { replace: true });

  if (status === 'authenticated' && !submitting) return <Navigate to={originOf(location.state)} replace />;

  if (secondStep) {
    return (
      <LoginCard>
        {secondStep.kind === 'password' ? (
          <ChoosePasswordStep
            mfaToken={secondStep.mfaToken}
            remember={remember}
            onStep={(step) => (step.kind === 'signedIn' ? signedIn() : setSecondStep(step))}
            onRestart={restart}
          />
        ) : secondStep.kind === 'code' ? (
          <SecondFactorStep
            mfaToken={secondStep.mfaToken}
            remember={remember}
            onSignedIn={signedIn}
            onRestart={restart}
          />
        ) : (
          <Suspense fallback={<p className="login__subtitle">Loading…</p>}>
            <EnrolSecondFactor
              enrolmentToken={secondStep.mfaToken}
              onDone={(grant: SessionGrant) => {
                finishEnrolment(grant, remember);
                signedIn();
              }}
              onRestart={restart}
            />
          </Suspense>
        )}
      </LoginCard>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginRequestSchema.safeParse({ username, password, remember });
    if (!parsed.success) return passwordStep.say(LOGIN_REQUIRED_MESSAGE);
    void passwordStep.send(
      async () => {
        const next = await login(parsed.data.username, parsed.data.password, parsed.data.remember);
        if (next.kind === 'signedIn') signedIn();
        else setSecondStep(next);
      },
      (failure) => passwordStep.say(failure instanceof Error ? failure.message : 'Login failed'),
    );
  };

  return (
    <LoginCard>
      <h1 className="login__title">Sign in</h1>
      <p className="login__subtitle">Dental clinic staff portal</p>

      {notice && !error && (
        <div className="login__notice" role="status">
          {notice}
        </div>
      )}
      <SignInForm step={passwordStep} onSubmit={onSubmit} doing="Signing in..." label="Sign in">
        <SignInField
          id="login-username"
          label="Username or Email"
          name="username"
          autoComplete="username"
          value={username}
          onValue={setUsername}
        />

        <label className="login__label" htmlFor="login-password">
          Password
        </label>
        <div className="login__password">
          <input
            id="login-password"
            className="login__input"
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            disabled={submitting}
          />
          <button
            type="button"
            className="login__toggle"
            onClick={() => setShowPassword((shown) => !shown)}
            aria-label={showPassword ? 'Hide password' : 'Show password'}
          >
            {showPassword ? 'Hide' : 'Show'}
          </button>
        </div>

        <div className="login__row">
          <label className="login__remember">
            <input
              type="checkbox"
              name="remember"
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
              disabled={submitting}
            />
            Remember me
          </label>
          <button type="button" className="login__link" onClick={() => setShowForgotHelp((shown) => !shown)}>
            Forgot password?
          </button>
        </div>
        {showForgotHelp && (
          <p className="login__help" role="note">
            Your clinic's administrator can set a new password for you in Users. Ask them to reset it, then
            sign in with the new password.
          </p>
        )}
      </SignInForm>

      <section className="login__demo" aria-label="Demo Accounts">
        <h2>Demo Accounts</h2>
        <ul>
          {DEMO_ACCOUNTS.map((account) => (
            <li key={account.username}>
              <strong>{account.role}:</strong> {account.username} / {account.password}
            </li>
          ))}
        </ul>
      </section>
    </LoginCard>
  );
}
