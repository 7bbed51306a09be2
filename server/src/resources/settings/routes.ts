import type { FastifyInstance } from 'fastify';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';

/** Settings endpoints (spec §7). */
export function registerSettingsRoutes(_app: FastifyInstance, _db: Database, _guard: Guard): void {}
