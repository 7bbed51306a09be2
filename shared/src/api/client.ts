import axios, { type AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { readStoredToken } from '../auth/storage';
import { FALLBACK_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../domain/constants';
import { ERROR_MESSAGES } from '../domain/errors';
import { DESK_HEADER, etagOf } from '../domain/liveDesk';

declare const process: { env: Record<string, string | undefined> };

/** The configured time-out, or the spec's fallback when it cannot be parsed (docs/product.md, Constants and limits). */
export function resolveRequestTimeout(configured: string | undefined): number {
  if (configured === undefined || configured === '') return REQUEST_TIMEOUT_MS;
  const parsed = Number.parseInt(configured, 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : FALLBACK_REQUEST_TIMEOUT_MS;
}

/** An API failure carrying the message the user should read (docs/product.md, Error messages). */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly fieldErrors: ReadonlyArray<{ field: string; message: string }>;
  /** The answer's whole body as the server sent it (a 412 carries the row now: `staleCurrentOf`). */
  readonly body: unknown;

  constructor(message: string, status?: number, fieldErrors: ApiError['fieldErrors'] = [], body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.body = body;
  }
}

/**
 * The headers of a write to one row as it was shown: `If-Match: "<version>"` (liveDesk.ts), so a row
 * changed meanwhile is refused with 412 instead of overwritten. No version: an unconditional write.
 */
export function ifMatch(version: number | null | undefined): Record<string, string> {
  return typeof version === 'number' ? { 'If-Match': etagOf(version) } : {};
}

/** A write refused as stale (412): the row as the server holds it now, else null. */
export function staleCurrentOf<Row>(error: unknown): Row | null {
  // By shape, not class: a module may hold another build's copy of this file.
  const { status, body } = (error ?? {}) as { status?: unknown; body?: { current?: unknown } | null };
  if (status !== 412) return null;
  return typeof body === 'object' &&
    body !== null &&
    typeof body.current === 'object' &&
    body.current !== null
    ? (body.current as Row)
    : null;
}

interface ErrorBody {
  message?: unknown;
  errors?: unknown;
}

/** The server's `message` when it sent one, otherwise the catalogue's fallback. */
export function toApiError(error: unknown, fallback: string): ApiError {
  if (error instanceof ApiError) return error;
  if (axios.isAxiosError(error)) {
    const body = (error.response?.data ?? {}) as ErrorBody;
    const message = typeof body.message === 'string' && body.message ? body.message : fallback;
    const fieldErrors = Array.isArray(body.errors)
      ? body.errors.filter(
          (e): e is { field: string; message: string } =>
            typeof e === 'object' && e !== null && 'field' in e && 'message' in e,
        )
      : [];
    return new ApiError(message, error.response?.status, fieldErrors, error.response?.data);
  }
  return new ApiError(fallback);
}

/**
 * This browser tab's name as a desk (DESK_HEADER), new each time the app loads: every call says it,
 * so a change is told to every desk but the one that made it. Random bytes, not randomUUID: that
 * one exists only on https and localhost, and a clinic's own server may be neither.
 */
export const THIS_DESK = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) =>
  byte.toString(16).padStart(2, '0'),
).join('');

export const apiClient = axios.create({
  baseURL: process.env.API_BASE_URL ?? '',
  timeout: resolveRequestTimeout(process.env.API_TIMEOUT),
  headers: { 'Content-Type': 'application/json', [DESK_HEADER]: THIS_DESK },
  withCredentials: true,
});

apiClient.interceptors.request.use((config) => {
  const token = readStoredToken();
  // A call that names its own bearer (the sign-in's enrolment step) keeps it.
  if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

/**
 * What the client does when the server answers 401: the auth store registers a handler that tries
 * `POST /auth/refresh` once and answers the new token, or clears the session and answers null.
 */
type UnauthorizedHandler = () => Promise<string | null>;
let unauthorizedHandler: UnauthorizedHandler | null = null;
let refreshInFlight: Promise<string | null> | null = null;

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/**
 * A fresh access token after the server refused the current one, the way every call gets it: many
 * callers that fail together (calls, the shell's event stream) share one refresh. Null when the
 * session could not be renewed (the auth store has then signed out).
 */
export function renewAccessToken(): Promise<string | null> {
  const handler = unauthorizedHandler;
  if (!handler) return Promise.resolve(null);
  refreshInFlight ??= handler().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

// A 401 from these is the answer itself (a wrong password or code), not an access token to renew.
const SESSION_ENDPOINTS = ['/auth/login', '/auth/refresh', '/auth/logout', '/auth/mfa/verify'];

interface RetriableConfig extends InternalAxiosRequestConfig {
  _retriedAfterRefresh?: boolean;
}

apiClient.interceptors.response.use(undefined, async (error: AxiosError) => {
  const config = error.config as RetriableConfig | undefined;
  const isSessionCall = SESSION_ENDPOINTS.some((path) => config?.url?.startsWith(path));
  if (error.response?.status !== 401 || !config || isSessionCall || !unauthorizedHandler) {
    throw error;
  }
  if (config._retriedAfterRefresh) {
    throw error;
  }
  const token = await renewAccessToken();
  if (!token) throw error;
  config._retriedAfterRefresh = true;
  config.headers.set('Authorization', `Bearer ${token}`);
  return apiClient.request(config);
});

/** Sends a request through the shared client; failures become an ApiError with the spec's message. */
export async function apiRequest<T>(config: AxiosRequestConfig, fallback: string): Promise<T> {
  try {
    const response = await apiClient.request<T>(config);
    return response.data;
  } catch (error) {
    throw toApiError(error, fallback);
  }
}

/** A list answer may be a bare array or `{ data: [...] }` (docs/product.md, API calls). */
export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

export function toPage<T>(body: T[] | Partial<Page<T>>): Page<T> {
  if (Array.isArray(body)) return { data: body, total: body.length, page: 1, limit: body.length };
  const data = body.data ?? [];
  return { data, total: body.total ?? data.length, page: body.page ?? 1, limit: body.limit ?? data.length };
}

export { ERROR_MESSAGES };
