import type {
  PublicBooked,
  PublicClinic,
  PublicCodeSent,
  PublicContact,
  PublicFreeTimes,
  PublicHoldBody,
} from '@dental/shared/domain';
import { publicRequest } from './publicRequest';

const clinicPath = (slug: string) => `/public/clinics/${encodeURIComponent(slug)}`;
const holdPath = (holdId: string) => `/public/holds/${encodeURIComponent(holdId)}`;

/** The clinic's page: name, address, phone, visit types offered online, dentists and rules. */
export const getClinic = (slug: string) => publicRequest<PublicClinic>('GET', clinicPath(slug));

export interface FreeTimesQuery {
  visitType: string;
  date: string;
  dentistId: number | null;
}

/** The starts free on a day for a visit type, with a dentist or any. */
export function getFreeTimes(slug: string, query: FreeTimesQuery) {
  const params = new URLSearchParams({ visit_type: query.visitType, date: query.date });
  if (query.dentistId !== null) params.set('dentist_id', String(query.dentistId));
  return publicRequest<PublicFreeTimes>('GET', `${clinicPath(slug)}/free-times?${params}`);
}

export interface Hold {
  hold_id: string;
  expires_at: string;
}

/** Holds the time picked for 5 minutes; 409 (the time was taken) carries the nearest free times. */
export const placeHold = (slug: string, body: PublicHoldBody) =>
  publicRequest<Hold>('POST', `${clinicPath(slug)}/holds`, body);

/** Sends the 6-digit code to the e-mail given; the time is then held as long as the code is good. */
export const sendCode = (holdId: string, contact: PublicContact) =>
  publicRequest<PublicCodeSent>('POST', `${holdPath(holdId)}/code`, contact);

/** Books the held time with the code. */
export const confirmCode = (holdId: string, code: string) =>
  publicRequest<PublicBooked>('POST', `${holdPath(holdId)}/confirm`, { code });
