import { type ApiError, authApi, type SessionGrant, type TotpSetup } from '@dental/shared';
import { Button, Flex, Spin, Typography, UiProvider } from '@dental/shared/ui';
import { Form } from '@dental/shared/ui/forms';
import { RecoveryCodesList, TotpCodeField, TotpKey } from '@dental/shared/ui/second-factor';
import { useEffect, useState } from 'react';

interface EnrolSecondFactorProps {
  /** The password step's enrolment token: it opens setting up the factor, nothing else. */
  enrolmentToken: string;
  /** The factor is on and its recovery codes were seen: the session it opened begins. */
  onDone: (grant: SessionGrant) => void;
  /** The token lapsed or the user went back: the password step again, with why. */
  onRestart: (message: string | null) => void;
}

/**
 * The clinic requires a second factor and this user has none: before anything else they set up an
 * authenticator app (its key, a first code) and see their recovery codes once. Loaded only for this
 * step, so the sign-in page stays light.
 */
export default function EnrolSecondFactor(props: EnrolSecondFactorProps) {
  // The sign-in page sits outside the signed-in app's kit provider: this step brings the product's theme.
  return (
    <UiProvider>
      <EnrolmentSteps {...props} />
    </UiProvider>
  );
}

function EnrolmentSteps({ enrolmentToken, onDone, onRestart }: EnrolSecondFactorProps) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [enabled, setEnabled] = useState<{ codes: string[]; grant: SessionGrant } | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ code: string }>();

  useEffect(() => {
    let current = true;
    authApi.startTotpSetup({}, enrolmentToken).then(
      (answer) => {
        if (current) setSetup(answer);
      },
      (failure: ApiError) => {
        if (current) onRestart(failure.message);
      },
    );
    return () => {
      current = false;
    };
  }, [enrolmentToken, onRestart]);

  const confirm = async ({ code }: { code: string }) => {
    setSaving(true);
    try {
      const answer = await authApi.enableTotp(code, { enrolmentToken });
      if (answer.grant) setEnabled({ codes: answer.recoveryCodes, grant: answer.grant });
    } catch (failure) {
      const apiError = failure as ApiError;
      if (apiError.status === 401) onRestart(apiError.message);
      else form.setFields([{ name: 'code', errors: [apiError.fieldErrors[0]?.message ?? apiError.message] }]);
    } finally {
      setSaving(false);
    }
  };

  if (enabled) {
    return (
      <section aria-labelledby="enrol-title">
        <h1 id="enrol-title" className="login__title">
          Two-step sign-in is on
        </h1>
        <RecoveryCodesList codes={enabled.codes} />
        <Button type="primary" block style={{ marginTop: 16 }} onClick={() => onDone(enabled.grant)}>
          I have saved my recovery codes
        </Button>
      </section>
    );
  }

  return (
    <section aria-labelledby="enrol-title">
      <h1 id="enrol-title" className="login__title">
        Set up two-step sign-in
      </h1>
      <p className="login__subtitle">
        Your clinic asks every sign-in for a code from an authenticator app as well as your password.
      </p>
      {setup ? (
        <>
          <TotpKey setup={setup} />
          <Form
            form={form}
            layout="vertical"
            onFinish={(values) => void confirm(values)}
            style={{ marginTop: 16 }}
          >
            <TotpCodeField label="Code from the app" checkFormat />
            <Button type="primary" htmlType="submit" block loading={saving}>
              Turn on and continue
            </Button>
          </Form>
        </>
      ) : (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin aria-label="Preparing your key" />
        </Flex>
      )}
      <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
        <Button type="link" onClick={() => onRestart(null)}>
          Back to sign in
        </Button>
      </Typography.Paragraph>
    </section>
  );
}
