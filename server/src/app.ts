import { EVENTS_KEEPALIVE_SECONDS } from '@dental/shared/domain';
import cookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import rateLimit from '@fastify/rate-limit';
import sensible from '@fastify/sensible';
import fastifySse from '@fastify/sse';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { accessClaimsOf, decorateAccessClaims } from './auth/accessClaims';
import { factorSealOfConfig } from './auth/factorKeys';
import { createGuard } from './auth/guard';
import { usePasswordHashCost } from './auth/passwords';
import { resealStoredKeys } from './auth/secondFactor';
import { type AppConfig, ConfigRefusal, productionKeysRefusal } from './config';
import { auditProofOf, macUnmarkedRecords, sealAuditChain } from './db/auditLog';
import { type DatabaseHandle, openDatabase } from './db/client';
import { sharedSecret } from './db/secrets';
import { seedDemoData } from './db/seedDemo';
import { registerApiDocs } from './plugins/apiDocs';
import { isAppFileRequest } from './plugins/apiRoutes';
import { ClinicEventHub } from './plugins/clinicEvents';
import { ClinicVersions, trackClinicWrites } from './plugins/clinicVersions';
import { registerErrorHandling } from './plugins/errors';
import { registerClinicReadCache } from './plugins/readCache';
import { registerReadTrail } from './plugins/readTrail';
import { registerRequestDesk } from './plugins/requestDesk';
import { responseSerializerCompiler } from './plugins/responseSerialization';
import { registerSecurityHeaders } from './plugins/security';
import { registerStaticHosting } from './plugins/staticHosting';
import { registerVersionTags } from './plugins/versions';
import { registerAppointmentsRoutes } from './resources/appointments/routes';
import { registerAuditRoutes } from './resources/audit/routes';
import { endSessionsTheMfaPolicyNowCovers } from './resources/auth/mfaPolicyFollower';
import { registerAuthRoutes } from './resources/auth/routes';
import { registerAvailabilityRoutes } from './resources/availability/routes';
import { registerBackupRoutes } from './resources/backup/routes';
import { registerBookingRequestsRoutes } from './resources/bookingRequests/routes';
import { registerCalendarFeedRoutes } from './resources/calendar/feedRoutes';
import { registerCalendarRoutes } from './resources/calendar/routes';
import { registerChairsRoutes } from './resources/chairs/routes';
import { registerClientErrorRoutes } from './resources/clientErrors/routes';
import { registerDashboardRoutes } from './resources/dashboard/routes';
import { registerDentistsRoutes } from './resources/dentists/routes';
import { registerEventsRoutes } from './resources/events/routes';
import { registerHealthRoutes } from './resources/health/routes';
import { registerModuleApiGate } from './resources/modules/moduleApiGate';
import { PLATFORM_TOKEN_MIN_LENGTH, registerPlatformRoutes } from './resources/modules/platformRoutes';
import { buildModuleRegistry, moduleOrigins } from './resources/modules/registry';
import { registerModuleRoutes } from './resources/modules/routes';
import { followReminderSettings } from './resources/notifications/outboxMessages';
import {
  type OutboxSender,
  type RepeatingJob,
  smtpTransport,
  startOutboxSender,
  webhookTransport,
} from './resources/notifications/outboxSender';
import { registerOutboxRoutes } from './resources/notifications/routes';
import { registerHeldTimesRoutes } from './resources/onlineBooking/heldTimesRoutes';
import { manageLinkOf } from './resources/onlineBooking/manageLinks';
import { bookingPageOpen } from './resources/onlineBooking/publicClinics';
import { registerPublicBookingRoutes } from './resources/onlineBooking/publicRoutes';
import { registerPatientsRoutes } from './resources/patients/routes';
import { startRecallReminders } from './resources/recall/recallAutoReminders';
import { registerRecallRoutes } from './resources/recall/routes';
import { registerSettingsRoutes } from './resources/settings/routes';
import { registerUsersRoutes } from './resources/users/routes';
import { registerWaitlistRoutes } from './resources/waitlist/routes';

/** How often the audit records written since are sealed into their clinics' chains. */
const AUDIT_SEALING_MS = 2_000;

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    /** The clinics' changes as this process hears them (the event streams follow it). */
    clinicEvents: ClinicEventHub;
    /** The reminders and alerts sender: tests run it by hand (`runOnce`). */
    outboxSender: OutboxSender;
    /** The automatic recall reminders (a clinic's setting): tests run it by hand (`runOnce`). */
    recallReminders: RepeatingJob;
  }
}

/** A route's hooks of one kind as a list (a route may name one hook, several, or none). */
const hooksOf = (hooks: unknown): unknown[] => (Array.isArray(hooks) ? hooks : hooks ? [hooks] : []);

/** The whole server: API, auth, security headers and static hosting, on the configured database. */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const keysRefusal = productionKeysRefusal(config);
  if (keysRefusal) throw new ConfigRefusal(keysRefusal);
  if (config.platformToken !== null && config.platformToken.length < PLATFORM_TOKEN_MIN_LENGTH)
    throw new ConfigRefusal(`PLATFORM_TOKEN must be at least ${PLATFORM_TOKEN_MIN_LENGTH} characters`);
  // Before the demo data is seeded: its accounts are hashed at the server's cost.
  usePasswordHashCost(config.passwordHashCost);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Passwords and tokens never reach the log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      ...(config.logStream && { stream: config.logStream }),
      // Readable lines for a person at a terminal; JSON lines, as pino writes them, everywhere else.
      ...(config.logFormat === 'pretty' && {
        transport: {
          target: 'pino-pretty',
          options: {
            colorize: config.logColors,
            translateTime: 'SYS:HH:MM:ss.l',
            // One line a request event: `req-1 incoming request GET /api/health`, `req-1 request completed 200`.
            messageFormat:
              '{if reqId}{reqId} {end}{msg}{if req.method} {req.method} {req.url}{end}{if res.statusCode} {res.statusCode}{end}',
            ignore: 'pid,hostname,reqId,req,res',
            singleLine: true,
          },
        },
      }),
    },
    trustProxy: config.trustProxy,
    // A path the router cannot read (bad percent-encoding, a segment too long) is answered here,
    // before any route: like every refusal, a message and the field at fault, without the path echoed.
    frameworkErrors: (error, _request, reply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a part of the address is too long'
          : 'the address is malformed';
      // The reply's generic types name no route's schema here (no route was found): a plain reply.
      void (reply as unknown as FastifyReply)
        .code(error.statusCode ?? 400)
        .header('cache-control', 'no-store')
        .send({ message: `Invalid url: ${message}`, errors: [{ field: 'url', message }] });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkAgainstZod: config.checkResponses }));

  const database = await openDatabase({
    ...config,
    onIdleConnectionError: (error) =>
      app.log.warn({ err: error }, 'database connection closed by the server'),
  });
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());
  const { db } = database;
  if (config.seedDemo) await seedDemoData(db);

  registerErrorHandling(app);
  // `app.httpErrors`: the errors routes answer with, which the error handler above recognises.
  await app.register(sensible);
  const registry = buildModuleRegistry(config);
  await registerSecurityHeaders(app, moduleOrigins(registry), config.httpsOnly);
  registerVersionTags(app);
  registerRequestDesk(app);
  await app.register(cookie);
  decorateAccessClaims(app);
  if (!config.jwtSecret || !config.factorKey || !config.auditKey) {
    app.log.warn(
      'JWT_SECRET, FACTOR_KEY or AUDIT_KEY is not set: a key kept in the database is used, so a copy of the database could sign in as anyone, and its owner could rewrite the audit chain unseen. Set all three for service (NODE_ENV=production refuses to start without them).',
    );
  }
  await app.register(fastifyJwt, { secret: config.jwtSecret ?? (await sharedSecret(db, 'jwt')) });
  // Every request is counted before anything else of its route runs (a guard, a sign-in step), so a
  // refused request counts too: each route's own hooks are noted before the limiter adds its one.
  const routeOwnHooks = new WeakMap<object, unknown[]>();
  app.addHook('onRoute', (route) => {
    routeOwnHooks.set(route, hooksOf(route.onRequest));
  });
  await app.register(rateLimit, {
    global: true,
    max: config.apiRateLimit,
    timeWindow: '1 minute',
    // One budget per signed-in user (a verified token's subject), else per address: a forged token
    // buys no budget of its own.
    keyGenerator: (request) => {
      const claims = accessClaimsOf(app, request);
      return claims ? `user:${claims.cid}:${claims.sub}` : `ip:${request.ip}`;
    },
    // The app's files are not counted; every API route and every unknown path is, however spelled.
    allowList: isAppFileRequest,
  });
  app.addHook('onRoute', (route) => {
    const own = routeOwnHooks.get(route) ?? [];
    const hooks = hooksOf(route.onRequest);
    route.onRequest = [...hooks.filter((hook) => !own.includes(hook)), ...own] as typeof route.onRequest;
  });
  await registerApiDocs(app);

  // Audit records written since are given their places in their clinics' chains every few seconds,
  // each with its HMAC; records sealed before HMACs began get theirs once, now.
  const auditProof = await auditProofOf(db, config);
  await macUnmarkedRecords(db, auditProof.key);
  const sealing = setInterval(() => {
    sealAuditChain(db, auditProof).catch((error: unknown) =>
      app.log.warn({ err: error }, 'sealing the audit chain failed'),
    );
  }, AUDIT_SEALING_MS);
  sealing.unref();
  app.addHook('preClose', async () => clearInterval(sealing));
  const hub = new ClinicEventHub();
  await hub.start(database);
  app.decorate('clinicEvents', hub);
  app.addHook('onClose', async () => hub.stop());
  await app.register(fastifySse, { heartbeatInterval: EVENTS_KEEPALIVE_SECONDS * 1000 });
  const versions = new ClinicVersions(db, hub);
  const guard = createGuard(app, db, versions);
  trackClinicWrites(app, versions);
  if (config.readCache) registerClinicReadCache(app, versions);
  // After the read cache: it keeps each answer's read with the answer before the read is recorded.
  registerReadTrail(app, database.trailDb);
  registerHealthRoutes(app, db);
  const factorSeal = await factorSealOfConfig(db, config);
  const resealing = await resealStoredKeys(db, factorSeal);
  if (resealing.unopened > 0) {
    app.log.error(
      `${resealing.unopened} stored authenticator key(s) open under none of this server's factor keys: those users' codes are refused until FACTOR_KEY (or FACTOR_KEY_PREVIOUS) names the key they were sealed with.`,
    );
  }
  registerAuthRoutes(app, db, guard, config, factorSeal);
  registerModuleApiGate(app, db, versions);
  registerModuleRoutes(app, db, guard, registry);
  registerPlatformRoutes(app, db, config);
  registerClientErrorRoutes(app, db, guard);
  registerAppointmentsRoutes(app, db, guard);
  registerPatientsRoutes(app, db, guard);
  registerDentistsRoutes(app, db, guard);
  registerAvailabilityRoutes(app, db, guard);
  registerCalendarRoutes(app, db, guard);
  registerCalendarFeedRoutes(app, db, guard);
  registerUsersRoutes(app, db, guard);
  registerRecallRoutes(app, db, guard);
  registerChairsRoutes(app, db, guard);
  registerWaitlistRoutes(app, db, guard);
  registerSettingsRoutes(app, db, guard, [followReminderSettings, endSessionsTheMfaPolicyNowCovers]);
  registerBackupRoutes(app, db, guard);
  registerPublicBookingRoutes(app, db, config);
  registerHeldTimesRoutes(app, db, guard);
  registerBookingRequestsRoutes(app, db, guard);
  const sender = startOutboxSender(
    db,
    {
      email: config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : null,
      sms: config.smsWebhookUrl ? webhookTransport(config.smsWebhookUrl) : null,
    },
    config.remindersPollSeconds,
    (error) => app.log.error({ err: error }, 'the outbox sender failed a run'),
    (clinicId, appointmentId) => manageLinkOf(db, config.publicUrl, clinicId, appointmentId),
  );
  app.decorate('outboxSender', sender);
  // Stopped before anything closes: a run in flight finishes while the database is still open.
  app.addHook('preClose', async () => sender.stop());
  // Beside the sender: recall reminders it queues go out on the sender's next run.
  const recallReminders = startRecallReminders(db, config.remindersPollSeconds, (error) =>
    app.log.error({ err: error }, 'the recall reminders failed a run'),
  );
  app.decorate('recallReminders', recallReminders);
  app.addHook('preClose', async () => recallReminders.stop());
  registerOutboxRoutes(app, db, guard, () => void sender.runOnce());
  registerDashboardRoutes(app, db, guard, {
    cacheStats: config.readCache,
    versionOf: (clinicId) => versions.current(clinicId),
  });
  registerEventsRoutes(app, db, guard, hub);
  registerAuditRoutes(app, db, guard, auditProof);
  registerStaticHosting(
    app,
    config.staticRoot,
    { bookingPageOpen: (slug) => bookingPageOpen(db, slug), rateLimit: config.publicRateLimit },
    config.moduleReleasesDir,
  );

  return app;
}
