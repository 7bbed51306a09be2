import { publicConfirmBodySchema } from '@dental/shared/domain';
import { type FormEvent, useState } from 'react';
import { PublicApiError } from '../api/publicRequest';
import { Notice } from './Notice';
import { TextField } from './TextField';

interface Props {
  email: string;
  onConfirm: (code: string) => Promise<void>;
  onResend: () => Promise<void>;
  onChangeDetails: () => void;
}

/** The code from the e-mail books the held time; a wrong one says how many tries are left. */
export function CodeForm({ email, onConfirm, onResend, onChangeDetails }: Props) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (failure) {
      if (!(failure instanceof PublicApiError)) throw failure;
      setNote(null);
      setError(failure.fieldMessage('code') ?? failure.message);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = publicConfirmBodySchema.safeParse({ code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    void run(() => onConfirm(parsed.data.code));
  };

  const resend = () =>
    run(async () => {
      await onResend();
      setError(undefined);
      setNote(`A new code is on its way to ${email}`);
    });

  return (
    <form className="booking-form" onSubmit={submit} noValidate aria-labelledby="booking-code-heading">
      <h2 id="booking-code-heading">Enter your code</h2>
      <p>
        We sent a 6-digit code to <strong>{email}</strong>. It is valid for 10 minutes.
      </p>
      {note && <Notice tone="info">{note}</Notice>}
      <TextField
        id="booking-code"
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        error={error}
        onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
      />
      <div className="booking-actions">
        <button type="submit" className="booking-button" disabled={busy}>
          Book the visit
        </button>
        <button type="button" className="booking-button-secondary" onClick={resend} disabled={busy}>
          Send a new code
        </button>
        <button type="button" className="booking-link" onClick={onChangeDetails}>
          Change my details
        </button>
      </div>
    </form>
  );
}
