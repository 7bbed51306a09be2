import { Button, Flex, Form, Input, QRCode, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { TOTP_CODE_MESSAGE, type TotpSetup, totpCodeString } from '../domain';

/** The key as people type it into an app by hand: groups of four. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * A new authenticator key: a QR code for the app's camera, and the same key as text for typing in
 * (the QR code's image is no use to a screen reader or a phone that is the screen).
 */
export function TotpKey({ setup }: { setup: TotpSetup }) {
  return (
    <Flex gap={16} wrap align="center">
      <QRCode value={setup.otpauth_url} size={168} bordered={false} aria-label="QR code of the key" />
      <div style={{ flex: '1 1 200px', minWidth: 0 }}>
        <Typography.Paragraph style={{ marginBottom: 8 }}>
          Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
          1Password…), or type in this key:
        </Typography.Paragraph>
        <Typography.Text
          code
          copyable={{ text: setup.secret }}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="totp-key"
        >
          {grouped(setup.secret)}
        </Typography.Text>
      </div>
    </Flex>
  );
}

export interface TotpCodeFieldProps {
  /** The field's words: 'Code from the app'. */
  label: ReactNode;
  /** A code that is not six digits is refused here, before it is sent. */
  checkFormat?: boolean;
}

/** A code from the authenticator app (the form's `code`): asked for, and typed on a number pad. */
export function TotpCodeField({ label, checkFormat = false }: TotpCodeFieldProps) {
  return (
    <Form.Item
      name="code"
      label={label}
      rules={[
        { required: true, message: TOTP_CODE_MESSAGE },
        ...(checkFormat
          ? [
              {
                validator: (_rule: unknown, value: string | undefined) =>
                  !value || totpCodeString.safeParse(value).success
                    ? Promise.resolve()
                    : Promise.reject(new Error(TOTP_CODE_MESSAGE)),
              },
            ]
          : []),
      ]}
    >
      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={9} />
    </Form.Item>
  );
}

/**
 * Recovery codes, shown once: each signs in once when the phone is not at hand. Copy or download
 * them before leaving; the server keeps only their hashes.
 */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div>
      <Typography.Paragraph strong style={{ marginBottom: 8 }}>
        Save these recovery codes somewhere safe. Each one signs you in once if your phone is not at hand.
        They are shown only now.
      </Typography.Paragraph>
      <ul
        aria-label="Recovery codes"
        style={{ columns: 2, listStyle: 'none', padding: 0, margin: '0 0 12px' }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Typography.Text code>{code}</Typography.Text>
          </li>
        ))}
      </ul>
      <Flex gap={8} wrap>
        <Button
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button onClick={download}>Download codes</Button>
      </Flex>
    </div>
  );
}
