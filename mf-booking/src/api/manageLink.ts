import type { PublicManagedVisit } from '@dental/shared/domain';
import { publicRequest } from './publicRequest';

const managePath = (token: string) => `/public/manage/${encodeURIComponent(token)}`;

/** The visit behind a manage link. */
export const getManagedVisit = (token: string) => publicRequest<PublicManagedVisit>('GET', managePath(token));

/** The patient confirms the visit. */
export const confirmVisit = (token: string) =>
  publicRequest<PublicManagedVisit>('POST', `${managePath(token)}/confirm`);

/** The patient cancels the visit (before the cut-off; inside it the clinic is asked to call). */
export const cancelVisit = (token: string) =>
  publicRequest<PublicManagedVisit>('POST', `${managePath(token)}/cancel`);

/** The patient moves the visit to another free time with the same dentist. */
export const moveVisit = (token: string, to: { date: string; time: string }) =>
  publicRequest<PublicManagedVisit>('POST', `${managePath(token)}/move`, to);
