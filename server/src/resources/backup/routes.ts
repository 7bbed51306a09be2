import { backupStatusSchema, clinicExportFileName, clinicExportSchema } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { backupStatus, exportClinic } from './clinicExport';

const TAGS = ['backup'];

/** The clinic's backup (Settings, Backup tab): its state for everyone, the export for an admin. */
export function registerBackupRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/backup',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "When the clinic's data was last exported, and by whom (any role); `last_export` null if never",
        security: SECURITY,
        response: { 200: backupStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => backupStatus(db, guard.staffOf(request).clinicId),
  );

  routes.get(
    '/api/backup/export',
    {
      onRequest: guard.permitted('all', "export the clinic's data"),
      schema: {
        tags: TAGS,
        summary:
          "The clinic's data as one JSON file to download (admin): settings, modules, users (no password hashes, tokens, sessions, second factors or recovery codes), dentists, patients, availability, appointments, appointment series, the waitlist, recall types and patients' recalls, with their ids. `npm run clinic:import -- <file>` loads it as a new clinic. Recorded as the last export",
        security: SECURITY,
        response: { 200: clinicExportSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      const file = await exportClinic(db, { clinicId: staff.clinicId, userId: staff.id, name: staff.name });
      void reply.header(
        'content-disposition',
        `attachment; filename="${clinicExportFileName(staff.clinicName, file.exported_at)}"`,
      );
      return file;
    },
  );
}
