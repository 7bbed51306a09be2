import { dictionary } from '@zxcvbn-ts/language-common';
import { HttpError } from '../plugins/errors';

export const COMMON_PASSWORD_MESSAGE = 'This password is among the most common passwords: choose another';

/** The 49,000 most common passwords (zxcvbn's list), lower-cased; read on first use. */
let common: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((entry) => String(entry).toLowerCase()));
  return common.has(password.toLowerCase());
}

/** Refuses (400, beside `field`) a password anyone could guess from a list. */
export function requireUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new HttpError(400, `Invalid ${field}: ${COMMON_PASSWORD_MESSAGE}`, [
      { field, message: COMMON_PASSWORD_MESSAGE },
    ]);
  }
}
