import { type ApiError, authApi, MFA_REQUIRED_CANNOT_DISABLE, type TotpSetup } from '@dental/shared';
import { formatDateTime, useQueryClient } from '@dental/shared/kit';
import { Alert, App, Button, Card, ErrorBanner, Flex, Spin, Typography } from '@dental/shared/ui';
import { Checkbox, Form, Input, Modal } from '@dental/shared/ui/forms';
import { RecoveryCodesList, TotpCodeField, TotpKey } from '@dental/shared/ui/second-factor';
import { useState } from 'react';
import { renewRecoveryCodes, securityKeys, turnOffTotp, useFactorStatus } from '../api/security';

/** What the dialog does: turn the authenticator on (or move it to a new phone), off, or renew codes. */
type Purpose = 'enable' | 'disable' | 'codes';

const TITLES: Record<Purpose, string> = {
  enable: 'Turn on two-step sign-in',
  disable: 'Turn off two-step sign-in',
  codes: 'New recovery codes',
};

interface ProofValues {
  password: string;
  code?: string;
  recovery_code?: string;
  end_other_sessions?: boolean;
}

/** Where the dialog is: proving it is you, scanning the new key, or the recovery codes shown once. */
type Step =
  | { kind: 'prove' }
  | { kind: 'scan'; setup: TotpSetup; endOthers: boolean }
  | { kind: 'codes'; codes: string[] };

function FactorDialog({
  purpose,
  factorOn,
  onClose,
}: {
  purpose: Purpose;
  factorOn: boolean;
  onClose: (changed: string | null) => void;
}) {
  const [proof] = Form.useForm<ProofValues>();
  const [scan] = Form.useForm<{ code: string }>();
  const [step, setStep] = useState<Step>({ kind: 'prove' });
  const [useRecovery, setUseRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState<string | null>(null);

  /** Field errors beside the fields this step shows; anything else in the dialog's banner. */
  const show = (form: typeof proof | typeof scan, shown: readonly string[], failure: ApiError) => {
    const beside = failure.fieldErrors.filter(({ field }) => shown.includes(field));
    form.setFields(beside.map(({ field, message }) => ({ name: field, errors: [message] })) as never);
    if (beside.length < failure.fieldErrors.length || beside.length === 0) {
      setError(failure.fieldErrors.find(({ field }) => !shown.includes(field))?.message ?? failure.message);
    }
  };

  const submitProof = async (values: ProofValues) => {
    setError(null);
    setBusy(true);
    const identity = {
      password: values.password,
      ...(factorOn && useRecovery ? { recovery_code: values.recovery_code } : {}),
      ...(factorOn && !useRecovery ? { code: values.code } : {}),
    };
    const endOthers = values.end_other_sessions ?? false;
    const request = { ...identity, end_other_sessions: endOthers };
    try {
      if (purpose === 'enable') {
        // The other sessions end when the new key is confirmed, not before.
        const setup = await authApi.startTotpSetup(identity);
        setStep({ kind: 'scan', setup, endOthers });
      } else if (purpose === 'codes') {
        const answer = await renewRecoveryCodes(request);
        setChanged('New recovery codes were made; the old ones no longer work.');
        setStep({ kind: 'codes', codes: answer.recovery_codes });
      } else {
        const answer = await turnOffTotp(request);
        onClose(answer.message);
      }
    } catch (failure) {
      show(
        proof,
        ['password', ...(factorOn ? [useRecovery ? 'recovery_code' : 'code'] : [])],
        failure as ApiError,
      );
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async ({ code }: { code: string }) => {
    if (step.kind !== 'scan') return;
    setError(null);
    setBusy(true);
    try {
      const answer = await authApi.enableTotp(code, { endOtherSessions: step.endOthers });
      setChanged('Two-step sign-in is on.');
      setStep({ kind: 'codes', codes: answer.recoveryCodes });
    } catch (failure) {
      show(scan, ['code'], failure as ApiError);
    } finally {
      setBusy(false);
    }
  };

  const footer =
    step.kind === 'codes' ? (
      <Button type="primary" onClick={() => onClose(changed)}>
        I have saved my recovery codes
      </Button>
    ) : (
      <Flex gap={8} justify="end">
        <Button onClick={() => onClose(changed)}>Cancel</Button>
        <Button
          type="primary"
          loading={busy}
          danger={purpose === 'disable'}
          onClick={() => (step.kind === 'prove' ? proof.submit() : scan.submit())}
        >
          {step.kind === 'scan' ? 'Turn on' : purpose === 'disable' ? 'Turn off' : 'Continue'}
        </Button>
      </Flex>
    );

  return (
    <Modal open title={TITLES[purpose]} onCancel={() => onClose(changed)} footer={footer} destroyOnHidden>
      <ErrorBanner message={error} onClose={() => setError(null)} />
      {step.kind === 'prove' && (
        <Form
          form={proof}
          layout="vertical"
          name="factor-proof"
          onFinish={(values) => void submitProof(values)}
        >
          <Form.Item
            name="password"
            label="Current password"
            rules={[{ required: true, message: 'Enter your current password' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {factorOn &&
            (useRecovery ? (
              <Form.Item
                name="recovery_code"
                label="Recovery code"
                rules={[{ required: true, message: 'Enter one of your recovery codes' }]}
              >
                <Input autoComplete="off" />
              </Form.Item>
            ) : (
              <TotpCodeField label="Code from your authenticator app" />
            ))}
          {factorOn && (
            <Button type="link" style={{ paddingInline: 0 }} onClick={() => setUseRecovery((was) => !was)}>
              {useRecovery ? 'Use a code from the app' : 'Use a recovery code'}
            </Button>
          )}
          <Form.Item name="end_other_sessions" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox>Sign out my other sessions</Checkbox>
          </Form.Item>
        </Form>
      )}
      {step.kind === 'scan' && (
        <>
          <TotpKey setup={step.setup} />
          <Form
            form={scan}
            layout="vertical"
            name="factor-scan"
            onFinish={(values) => void submitCode(values)}
            style={{ marginTop: 16 }}
          >
            <TotpCodeField label="Code from the app" />
          </Form>
        </>
      )}
      {step.kind === 'codes' && <RecoveryCodesList codes={step.codes} />}
    </Modal>
  );
}

/**
 * Your second factor (Settings → Security): an authenticator app's code asked at every sign-in
 * besides the password. Turning it on or off, or making new recovery codes, asks for the password
 * (and a code when it is on).
 */
export function TwoStepSignInCard() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const status = useFactorStatus();
  const [purpose, setPurpose] = useState<Purpose | null>(null);

  const closed = (changed: string | null) => {
    setPurpose(null);
    if (!changed) return;
    message.success(changed);
    void queryClient.invalidateQueries({ queryKey: securityKeys.factor });
    void queryClient.invalidateQueries({ queryKey: securityKeys.sessions });
  };

  const factor = status.data;
  return (
    <Card title="Two-step sign-in" size="small">
      <ErrorBanner
        message={status.isError ? (status.error as ApiError).message : null}
        onRetry={() => void status.refetch()}
      />
      {status.isPending ? (
        <Spin aria-label="Loading your two-step sign-in" />
      ) : factor?.totp ? (
        <Flex vertical gap={12}>
          <Typography.Text>
            <Typography.Text strong>On</Typography.Text> since {formatDateTime(factor.enabled_at)}: every
            sign-in asks for a code from your authenticator app. {factor.recovery_codes_left} of your recovery
            codes are left.
          </Typography.Text>
          {factor.required && <Alert type="info" showIcon title={MFA_REQUIRED_CANNOT_DISABLE} />}
          <Flex gap={8} wrap>
            <Button onClick={() => setPurpose('codes')}>New recovery codes</Button>
            <Button onClick={() => setPurpose('enable')}>Move to a new phone</Button>
            {!factor.required && (
              <Button danger onClick={() => setPurpose('disable')}>
                Turn off
              </Button>
            )}
          </Flex>
        </Flex>
      ) : (
        factor && (
          <Flex vertical gap={12} align="start">
            <Typography.Text>
              <Typography.Text strong>Off.</Typography.Text> Turn it on and every sign-in asks for a code from
              an authenticator app on your phone as well as your password, so a stolen password alone opens
              nothing.
            </Typography.Text>
            <Button type="primary" onClick={() => setPurpose('enable')}>
              Turn on two-step sign-in
            </Button>
          </Flex>
        )
      )}
      {purpose && <FactorDialog purpose={purpose} factorOn={factor?.totp ?? false} onClose={closed} />}
    </Card>
  );
}
