import type { InputHTMLAttributes } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled input whose error is read out with it. */
export function TextField({ id, label, error, hint, ...input }: Props) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="booking-field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="booking-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {error && (
        <p className="booking-field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
