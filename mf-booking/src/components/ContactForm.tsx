import { type PublicContact, publicContactSchema } from '@dental/shared/domain';
import { type FormEvent, useState } from 'react';
import { PublicApiError } from '../api/publicRequest';
import { Notice } from './Notice';
import { TextField } from './TextField';

type Field = 'name' | 'phone' | 'email' | 'date_of_birth';
const FIELDS: Field[] = ['name', 'phone', 'email', 'date_of_birth'];

interface Props {
  initial: PublicContact | null;
  today: string;
  onSend: (contact: PublicContact) => Promise<void>;
  onStartOver: () => void;
}

/** Who books: checked here by the same rules the server keeps, then a code is sent to the e-mail. */
export function ContactForm({ initial, today, onSend, onStartOver }: Props) {
  const [values, setValues] = useState<Record<Field, string>>({
    name: initial?.name ?? '',
    phone: initial?.phone ?? '',
    email: initial?.email ?? '',
    date_of_birth: initial?.date_of_birth ?? '',
  });
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = publicContactSchema.safeParse({ ...values, website: website || undefined });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        if (FIELDS.includes(field) && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await onSend(parsed.data);
    } catch (error) {
      if (!(error instanceof PublicApiError)) throw error;
      const named = Object.fromEntries(
        FIELDS.map((field) => [field, error.fieldMessage(field)]).filter(([, message]) => message),
      ) as Partial<Record<Field, string>>;
      setErrors(named);
      if (Object.keys(named).length === 0) setFailure(error.message);
    } finally {
      setSending(false);
    }
  };

  const field = (name: Field) => ({
    id: `booking-${name}`,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });

  return (
    <form className="booking-form" onSubmit={submit} noValidate aria-labelledby="booking-contact-heading">
      <h2 id="booking-contact-heading">Your details</h2>
      <p className="booking-hint">We send a 6-digit code to your e-mail to make sure it is you.</p>
      {failure && <Notice tone="error">{failure}</Notice>}
      <TextField label="Full name" autoComplete="name" required {...field('name')} />
      <TextField label="Phone" type="tel" autoComplete="tel" required {...field('phone')} />
      <TextField label="E-mail" type="email" autoComplete="email" required {...field('email')} />
      <TextField
        label="Date of birth"
        type="date"
        max={today}
        autoComplete="bday"
        required
        {...field('date_of_birth')}
      />
      {/* People never see this field; a bot that fills it is told what a person is told, and nothing is sent. */}
      <div className="booking-trap" aria-hidden="true">
        <label htmlFor="booking-website">Website</label>
        <input
          id="booking-website"
          tabIndex={-1}
          autoComplete="off"
          value={website}
          onChange={(event) => setWebsite(event.target.value)}
        />
      </div>
      <div className="booking-actions">
        <button type="submit" className="booking-button" disabled={sending}>
          {sending ? 'Sending…' : 'Send me a code'}
        </button>
        <button type="button" className="booking-button-secondary" onClick={onStartOver}>
          Choose another time
        </button>
      </div>
    </form>
  );
}
