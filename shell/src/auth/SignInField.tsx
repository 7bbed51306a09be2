import { type ApiError, MFA_TOKEN_EXPIRED_MESSAGE } from '@dental/shared/session';
import {
  createContext,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  useCallback,
  useContext,
  useState,
} from 'react';

/** Whether a step waits on the server, and what went wrong: the step's form shows both. */
export interface SignInStepState {
  submitting: boolean;
  error: string | null;
}

/**
 * A sign-in step's wait on the server and what went wrong. `say` tells what is wrong (null: nothing);
 * `send` clears it and waits on the request, whose refusal ends the wait and goes to `refused` (which
 * says it, or leaves the step). A request that succeeds keeps the step waiting: the sign-in moves on
 * from it, and `reset` ends the wait of a step come back to, saying why.
 */
export function useSignInStep() {
  const [state, setState] = useState<SignInStepState>({ submitting: false, error: null });
  const say = useCallback((error: string | null) => setState((was) => ({ ...was, error })), []);
  const reset = useCallback((error: string | null) => setState({ submitting: false, error }), []);
  const send = async (request: () => Promise<void>, refused: (failure: unknown) => void) => {
    setState({ submitting: true, error: null });
    try {
      await request();
    } catch (failure) {
      setState((was) => ({ ...was, submitting: false }));
      refused(failure);
    }
  };
  return { ...state, say, reset, send };
}

/**
 * A refusal of a step after the password: its token lapsed, back to the password with why;
 * anything else is the step's to say.
 */
export function laterStepRefusal(
  onRestart: (message: string | null) => void,
  say: (error: ApiError) => void,
) {
  return (failure: unknown) => {
    const apiError = failure as ApiError;
    if (apiError.message === MFA_TOKEN_EXPIRED_MESSAGE) onRestart(apiError.message);
    else say(apiError);
  };
}

/** A field is disabled while its step waits on the server. */
const Submitting = createContext(false);

type SignInFieldProps = {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'>;

/** A labelled field of a sign-in step (its plain inputs keep the page light before the app loads). */
export function SignInField({ id, label, value, onValue, ...input }: SignInFieldProps) {
  const submitting = useContext(Submitting);
  return (
    <>
      <label className="login__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="login__input"
        value={value}
        onChange={(event) => onValue(event.target.value)}
        disabled={submitting}
        {...input}
      />
    </>
  );
}

/** What went wrong with a sign-in step, read out when it appears. */
function SignInError({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <div className="login__error" role="alert">
      {error}
    </div>
  );
}

/** A sign-in step's one button: what it does, and what it is doing while the server answers. */
function SignInSubmit({ submitting, doing, label }: { submitting: boolean; doing: string; label: string }) {
  return (
    <button type="submit" className="login__submit" disabled={submitting}>
      {submitting ? doing : label}
    </button>
  );
}

/** Leaves a later step of signing in for the first one. */
export function BackToSignIn({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="login__link" onClick={onBack}>
      Back to sign in
    </button>
  );
}

/**
 * A sign-in step's form: what went wrong above it, its fields (disabled while the server answers),
 * and its one button, which says what it is doing meanwhile. The browser's own checks are off: the
 * step says what is wrong.
 */
export function SignInForm({
  step,
  onSubmit,
  doing,
  label,
  children,
}: {
  step: SignInStepState;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  doing: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <>
      <SignInError error={step.error} />
      <form onSubmit={onSubmit} noValidate>
        <Submitting.Provider value={step.submitting}>{children}</Submitting.Provider>
        <SignInSubmit submitting={step.submitting} doing={doing} label={label} />
      </form>
    </>
  );
}
