import { passwordString, type SignInStep, useAuthStore } from '@dental/shared/session';
import { type FormEvent, useState } from 'react';
import { BackToSignIn, laterStepRefusal, SignInField, SignInForm, useSignInStep } from './SignInField';

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
  const step = useSignInStep();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordString.safeParse(password);
    if (!parsed.success) return step.say(parsed.error.issues[0]?.message ?? 'Choose a password');
    if (password !== confirm) return step.say(MISMATCH);
    void step.send(
      async () => onStep(await choose(mfaToken, parsed.data, remember)),
      // The server names the field; the step has one to say it of.
      laterStepRefusal(onRestart, (apiError) =>
        step.say(apiError.fieldErrors[0]?.message ?? apiError.message),
      ),
    );
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
      <SignInForm step={step} onSubmit={onSubmit} doing="Saving..." label="Save and continue">
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
        />
        <SignInField
          id="choose-password-again"
          label="New password again"
          type="password"
          name="new_password_again"
          autoComplete="new-password"
          value={confirm}
          onValue={setConfirm}
        />
      </SignInForm>
      <div className="login__row">
        <BackToSignIn onBack={() => onRestart(null)} />
      </div>
    </section>
  );
}
