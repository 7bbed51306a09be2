import {
  CODE_SENT,
  ONLINE_CODE_MINUTES,
  publicBookedSchema,
  publicClinicSchema,
  publicCodeSentSchema,
  publicConfirmBodySchema,
  publicContactSchema,
  publicFreeTimesQuerySchema,
  publicFreeTimesSchema,
  publicHoldBodySchema,
  publicHoldParamsSchema,
  publicHoldSchema,
  publicManagedVisitSchema,
  publicManageParamsSchema,
  publicMoveBodySchema,
  publicSlugParamsSchema,
  publicTimeTakenSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { placeHold } from './holds';
import { cancelByPatient, confirmByPatient, managedVisit, moveByPatient } from './manageVisits';
import { confirmHold, sendHoldCode } from './onlineVisits';
import { bookingClinicOf, publicClinic, publicFreeTimes } from './publicClinics';

const TAGS = ['online booking'];

/**
 * The clinic's public booking page's reads (docs/product.md, Online booking): no staff sign-in, each
 * address limited per minute, and a 404 alike for an unknown slug and a clinic with it off.
 */
export function registerPublicBookingRoutes(app: FastifyInstance, db: Database, config: AppConfig): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: config.publicRateLimit, timeWindow: '1 minute' };

  routes.get(
    '/public/clinics/:slug',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          "A clinic's booking page: its name, address and phone, the visit types it offers online, its dentists and its rules (no sign-in)",
        params: publicSlugParamsSchema,
        response: { 200: publicClinicSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => publicClinic(db, await bookingClinicOf(db, request.params.slug)),
  );

  routes.get(
    '/public/clinics/:slug/free-times',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          'The starts a patient may book on a day for a visit type offered online, with a dentist or any dentist: the desk’s rules over the chairs bookable online, from the notice on and within the horizon (no sign-in)',
        params: publicSlugParamsSchema,
        querystring: publicFreeTimesQuerySchema,
        response: { 200: publicFreeTimesSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => publicFreeTimes(db, await bookingClinicOf(db, request.params.slug), request.query),
  );

  routes.post(
    '/public/clinics/:slug/holds',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          'Holds a free time the patient picked for 5 minutes, for the desk as well, with the dentist (or any) and a chair bookable online: 201 with the hold’s private id, or 409 with the nearest free times when it was taken (no sign-in)',
        params: publicSlugParamsSchema,
        body: publicHoldBodySchema,
        response: { 201: publicHoldSchema, 409: publicTimeTakenSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const outcome = await placeHold(db, await bookingClinicOf(db, request.params.slug), request.body);
      if ('taken' in outcome) return reply.code(409).send(outcome.taken);
      return reply.code(201).send(outcome.held);
    },
  );

  routes.post(
    '/public/holds/:hold_id/code',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          'Sends a 6-digit code to the e-mail given (and by SMS to the phone, where the server has an SMS transport), valid 10 minutes (the hold lasts as long, until the `expires_at` answered); a new code replaces the last, three at most. Says nothing of whether the e-mail or phone is a patient’s (no sign-in)',
        params: publicHoldParamsSchema,
        body: publicContactSchema,
        response: { 202: publicCodeSentSchema, ...errorResponses(400, 404, 409, 410, 429) },
      },
    },
    async (request, reply) => {
      const { website, ...contact } = request.body;
      // A field people never see, filled: a bot. It is told what a person is told, and nothing is sent.
      if (website) {
        const expiresAt = new Date(Date.now() + ONLINE_CODE_MINUTES * 60_000).toISOString();
        return reply.code(202).send({ message: CODE_SENT, expires_at: expiresAt });
      }
      const expiresAt = await sendHoldCode(db, request.params.hold_id, contact, {
        bySms: config.smsWebhookUrl !== null,
      });
      void app.outboxSender?.runOnce();
      return reply.code(202).send({ message: CODE_SENT, expires_at: expiresAt });
    },
  );

  routes.post(
    '/public/holds/:hold_id/confirm',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          'Books the held time when the code is right: for the patient whose e-mail, phone and date of birth all match, else a new record (an unmatched request at the desk when only some match); five wrong codes let the hold go. 201 with the visit and its private manage link (no sign-in)',
        params: publicHoldParamsSchema,
        body: publicConfirmBodySchema,
        response: { 201: publicBookedSchema, ...errorResponses(400, 404, 409, 410, 429) },
      },
    },
    async (request, reply) => {
      const origin = `${request.protocol}://${request.host}`;
      const booked = await confirmHold(
        db,
        request.params.hold_id,
        request.body.code,
        (token) => `${origin}/book/manage/${token}`,
      );
      void app.outboxSender?.runOnce();
      return reply.code(201).send(booked);
    },
  );

  const manageSchema = (summary: string) => ({
    tags: TAGS,
    summary,
    params: publicManageParamsSchema,
    response: { 200: publicManagedVisitSchema, ...errorResponses(400, 404, 409, 429) },
  });

  routes.get(
    '/public/manage/:token',
    {
      config: { rateLimit },
      schema: manageSchema(
        'The visit behind a private manage link: the first name, the visit and the clinic, and whether it may still be confirmed, moved or cancelled online (no sign-in)',
      ),
    },
    async (request) => managedVisit(db, request.params.token),
  );

  // Confirm and cancel: a POST to the link with no body, answering the visit as it is then.
  const actions = [
    {
      path: 'confirm',
      act: confirmByPatient,
      summary:
        'The patient confirms the visit: confirmed, by the patient online; again, nothing changes (no sign-in)',
    },
    {
      path: 'cancel',
      act: cancelByPatient,
      summary:
        "The patient cancels before the clinic's cut-off; inside it, 409 with the clinic's phone, and the desk is asked to call them (no sign-in)",
    },
  ];
  for (const { path, act, summary } of actions) {
    routes.post(
      `/public/manage/:token/${path}`,
      { config: { rateLimit }, schema: manageSchema(summary) },
      async (request) => act(db, request.params.token),
    );
  }

  routes.post(
    '/public/manage/:token/move',
    {
      config: { rateLimit },
      schema: {
        ...manageSchema(
          "The patient moves the visit before the cut-off to another of the page's free times with the same dentist, pending again; inside it, 409 with the clinic's phone (no sign-in)",
        ),
        body: publicMoveBodySchema,
      },
    },
    async (request) => moveByPatient(db, request.params.token, request.body),
  );
}
