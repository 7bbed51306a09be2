import { z } from 'zod';

/**
 * The live desk: every open screen of a clinic follows the changes other desks make, through one
 * Server-Sent Events stream per browser, and no write silently overwrites a newer version.
 */

/** `GET` it with the bearer token: a `text/event-stream` of the caller's clinic. */
export const EVENTS_URL = '/api/events';
/** The stream says something at least this often (a comment line when nothing happens). */
export const EVENTS_KEEPALIVE_SECONDS = 15;
/** A browser waits this long before it reconnects a dropped stream (the stream's `retry:`). */
export const EVENTS_RETRY_MS = 2_000;
/** A stream whose account was deactivated or whose session signed out ends within this time. */
export const EVENTS_ACCESS_CHECK_SECONDS = 3;

/** What changed: the resources screens show. */
export const LIVE_RESOURCES = [
  'appointment',
  'patient',
  'dentist',
  'availability',
  'user',
  'settings',
  'module',
  'outbox',
  'calendar_feed',
  /** A patient's recall of a type (its id is the patient's). */
  'recall',
  'recall_type',
  /** A chair (operatory) of the clinic. */
  'chair',
  /** A patient's entry on the waitlist for freed time. */
  'waitlist',
  /** A request from the booking page to the desk (an unmatched booking, a call). */
  'booking_request',
  /** A time a patient holds on the booking page while they give their details. */
  'booking_hold',
  /** What one user has seen of the bell: only that user's screens follow it. */
  'activity_seen',
] as const;
export type LiveResource = (typeof LIVE_RESOURCES)[number];

export const LIVE_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type LiveAction = (typeof LIVE_ACTIONS)[number];

/**
 * The SSE event types: `change` carries a ClinicEvent; `resync` says the stream could not replay
 * what was missed (the server restarted, or too much happened), so every screen reads again; `end`
 * says the session's access ended (deactivated, signed out), and the stream closes.
 */
export const EVENT_TYPES = { change: 'change', resync: 'resync', end: 'end' } as const;

/**
 * The header a browser tab names itself by on every call: each tab is a desk of its own, even when
 * several are signed in to one account, so a change is told to every desk but the one that made it.
 */
export const DESK_HEADER = 'X-Desk';
/** A desk's name as the server takes it; anything else is not a desk (the change names none). */
export const DESK_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

/** The `data:` of a `change` event. Its SSE `id:` is `event` as text: resume with `Last-Event-ID`. */
export const clinicEventSchema = z.object({
  /** The event's id: increasing, the same on every API process. */
  event: z.number().int(),
  resource: z.enum(LIVE_RESOURCES),
  /** The row's id; null for the clinic's one row (settings) or a change of many rows. */
  id: z.number().int().nullable(),
  action: z.enum(LIVE_ACTIONS),
  /** The staff member who made the change, or null (the server itself: reminders, imports). */
  by: z.number().int().nullable(),
  /** The desk (DESK_HEADER) the change was made at, or null: the server itself, or a call that named none. */
  desk: z.string().nullable(),
});
export type ClinicEvent = z.infer<typeof clinicEventSchema>;

/** The `data:` of an `end` event. */
export const streamEndSchema = z.object({ message: z.string() });

/**
 * Versions (RFC 9110 conditional requests): a single row's answer carries `ETag: "<version>"` and
 * the row its `version`; a `PUT`, `PATCH` or `DELETE` with `If-Match` naming an older version is
 * refused with 412 and the current row.
 */
export const etagOf = (version: number): string => `"${version}"`;

/** The version an `If-Match` names, or null for none, `*` or a tag that is not one of ours. */
export function versionOfTag(tag: string | null | undefined): number | null {
  const match = /^\s*(?:W\/)?"(\d+)"\s*$/.exec(tag ?? '');
  return match ? Number(match[1]) : null;
}

export const STALE_WRITE_MESSAGE = 'This record was changed at another desk since you opened it.';
export const GONE_MEANWHILE_MESSAGE = 'This record was deleted at another desk since you opened it.';

/** A 412's body: what the server holds now. */
export interface StaleWrite<Row> {
  message: string;
  current: Row;
}

/** What this user has seen of the clinic's activity (the bell): the newest audit id seen. */
export const activitySeenSchema = z.object({ seen_id: z.number().int().min(0) });
export type ActivitySeen = z.infer<typeof activitySeenSchema>;
export const ACTIVITY_SEEN_URL = '/api/dashboard/activity/seen';
