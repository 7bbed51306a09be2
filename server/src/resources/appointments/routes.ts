import type { FastifyInstance } from 'fastify';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';

/** Appointments endpoints (spec §7). */
export function registerAppointmentsRoutes(_app: FastifyInstance, _db: Database, _guard: Guard): void {}
