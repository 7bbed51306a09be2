import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';

type SignInFieldProps = {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'>;

/** A labelled field of a sign-in step (its plain inputs keep the page light before the app loads). */
export function SignInField({ id, label, value, onValue, ...input }: SignInFieldProps) {
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
 * A sign-in step's form: what went wrong above it, its fields, and its one button, which says what
 * it is doing while the server answers. The browser's own checks are off: the step says what is wrong.
 */
export function SignInForm({
  error,
  onSubmit,
  submitting,
  doing,
  label,
  children,
}: {
  error: string | null | undefined;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitting: boolean;
  doing: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <>
      <SignInError error={error} />
      <form onSubmit={onSubmit} noValidate>
        {children}
        <SignInSubmit submitting={submitting} doing={doing} label={label} />
      </form>
    </>
  );
}
