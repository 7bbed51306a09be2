import { dictionary } from '@zxcvbn-ts/language-common';
import { InvalidValue } from '../domain/errors';

export const COMMON_PASSWORD_MESSAGE = 'This password is among the most common passwords: choose another';

export const CONTEXT_PASSWORD_MESSAGE =
  "This password contains the user's name, username or e-mail, or the clinic's name: choose another";

/**
 * The 49,000 most common passwords (zxcvbn's list, drawn from breached password sets and shipped
 * with the package, so no check leaves the machine), lower-cased; read on first use.
 */
let common: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((entry) => String(entry).toLowerCase()));
  return common.has(password.toLowerCase());
}

/** Words of at least this many letters or digits of a name are looked for in a password. */
const CONTEXT_WORD_MIN = 4;

/** Whether the password holds a word of its context (the user's names and e-mail, the clinic's name). */
export function usesContextWords(password: string, context: readonly string[]): boolean {
  const typed = password.toLowerCase();
  const words = context
    .flatMap((text) => [text, ...text.split(/[^\p{L}\p{N}]+/u)])
    .map((word) => word.toLowerCase())
    .filter((word) => word.length >= CONTEXT_WORD_MIN);
  return words.some((word) => typed.includes(word));
}

/** What anyone knows of an account, which its password may not hold: its names, its e-mail's name, its clinic's. */
export function passwordContextOf(
  account: { name?: string | null; username?: string | null; email?: string | null },
  clinicName: string | null | undefined,
): string[] {
  return [account.name, account.username, account.email?.split('@')[0], clinicName].filter(
    (word): word is string => Boolean(word),
  );
}

/**
 * Refuses (400, beside `field`) a password anyone could guess: one from the breached list, or one
 * made of what anyone knows of the account (`context`: its name, username, e-mail, the clinic's name).
 */
export function requireUnguessablePassword(
  password: string,
  context: readonly string[],
  field = 'password',
): void {
  const message = isCommonPassword(password)
    ? COMMON_PASSWORD_MESSAGE
    : usesContextWords(password, context)
      ? CONTEXT_PASSWORD_MESSAGE
      : null;
  if (message) throw InvalidValue.of(field, message);
}
