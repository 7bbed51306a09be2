import { recoveryCodeString, TOTP_CODE_MESSAGE, totpCodeString, useAuthStore } from '@dental/shared/session';
import { type FormEvent, useState } from 'react';
import { BackToSignIn, laterStepRefusal, SignInField, SignInForm, useSignInStep } from './SignInField';

interface SecondFactorStepProps {
  /** The password step's token: it opens this step alone, for a few minutes. */
  mfaToken: string;
  remember: boolean;
  onSignedIn: () => void;
  /** Back to the password (the token lapsed, or the user chose to), with why. */
  onRestart: (message: string | null) => void;
}

/**
 * Sign-in's second step: the 6-digit code from the user's authenticator app, or one of their
 * recovery codes when the phone is not at hand. Kept free of the UI kit like the password step.
 */
export function SecondFactorStep({ mfaToken, remember, onSignedIn, onRestart }: SecondFactorStepProps) {
  const verify = useAuthStore((state) => state.verifySecondFactor);
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const step = useSignInStep();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = (useRecovery ? recoveryCodeString : totpCodeString).safeParse(value);
    if (!parsed.success) return step.say(parsed.error.issues[0]?.message ?? TOTP_CODE_MESSAGE);
    void step.send(
      async () => {
        await verify(
          mfaToken,
          useRecovery ? { recovery_code: parsed.data } : { code: parsed.data },
          remember,
        );
        onSignedIn();
      },
      laterStepRefusal(onRestart, (apiError) => step.say(apiError.message)),
    );
  };

  const switchKind = () => {
    setUseRecovery((was) => !was);
    setValue('');
    step.say(null);
  };

  const inputId = useRecovery ? 'login-recovery-code' : 'login-code';
  return (
    <section aria-labelledby="second-step-title">
      <h1 id="second-step-title" className="login__title">
        Two-step sign-in
      </h1>
      <p className="login__subtitle">
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you set up two-step sign-in.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <SignInForm step={step} onSubmit={onSubmit} doing="Checking..." label="Verify">
        <SignInField
          key={inputId}
          id={inputId}
          label={useRecovery ? 'Recovery code' : 'Code'}
          name={useRecovery ? 'recovery_code' : 'code'}
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoComplete={useRecovery ? 'off' : 'one-time-code'}
          // The step opens on its one field: the page shows nothing else to do.
          autoFocus
          value={value}
          onValue={setValue}
        />
      </SignInForm>
      <div className="login__row">
        <button type="button" className="login__link" onClick={switchKind}>
          {useRecovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        <BackToSignIn onBack={() => onRestart(null)} />
      </div>
    </section>
  );
}
