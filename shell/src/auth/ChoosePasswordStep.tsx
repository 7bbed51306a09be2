import {
  type ApiError,
  MFA_TOKEN_EXPIRED_MESSAGE,
  passwordString,
  type SignInStep,
  useAuthStore,
} from '@dental/shared';
import { type FormEvent, useState } from 'react';
import { BackToSignIn, SignInField, SignInForm } from './SignInField';

interface ChoosePasswordStepProps {
  /** The password step's token: it opens this step alone, for a few minutes. */
  mfaToken: string;
  remember: boolean;
  /** Signed in, or the sign-in's next step (a code, or setting up a factor). */
  onStep: (step: SignInStep) => void;
  /** Back to the password (the token lapsed, or the user chose to), with why. */
  onRestart: (message: string | null) => void;
}

const MISMATCH = 'The two passwords are not the same';

/**
 * The sign-in of an account whose password someone else chose (an imported clinic's one-time
 * password): the account's own password first. Kept free of the UI kit like the password step.
 */
export function ChoosePasswordStep({ mfaToken, remember, onStep, onRestart }: ChoosePasswordStepProps) {
  const choose = useAuthStore((state) => state.choosePassword);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordString.safeParse(password);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Choose a password');
      return;
    }
    if (password !== confirm) {
      setError(MISMATCH);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      onStep(await choose(mfaToken, parsed.data, remember));
    } catch (failure) {
      const apiError = failure as ApiError;
      setSubmitting(false);
      if (apiError.message === MFA_TOKEN_EXPIRED_MESSAGE) onRestart(apiError.message);
      // The server names the field; the step has one to say it of.
      else setError(apiError.fieldErrors[0]?.message ?? apiError.message);
    }
  };

  return (
    <section aria-labelledby="choose-password-title">
      <h1 id="choose-password-title" className="login__title">
        Choose your password
      </h1>
      <p className="login__subtitle">
        The password you signed in with was given to you. Choose one of your own to go on: at least 8
        characters, not a common one, and none of your names.
      </p>
      <SignInForm
        error={error}
        onSubmit={onSubmit}
        submitting={submitting}
        doing="Saving..."
        label="Save and continue"
      >
        <SignInField
          id="choose-password"
          label="New password"
          type="password"
          name="new_password"
          autoComplete="new-password"
          // The step opens on its first field, as the code step does.
          autoFocus
          value={password}
          onValue={setPassword}
          disabled={submitting}
        />
        <SignInField
          id="choose-password-again"
          label="New password again"
          type="password"
          name="new_password_again"
          autoComplete="new-password"
          value={confirm}
          onValue={setConfirm}
          disabled={submitting}
        />
      </SignInForm>
      <div className="login__row">
        <BackToSignIn onBack={() => onRestart(null)} />
      </div>
    </section>
  );
}
