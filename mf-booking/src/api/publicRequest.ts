/** A refusal of the public API: its status, its message and the fields it names. */
export class PublicApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
  /** The message a field was refused with, when the server named it. */
  fieldMessage(field: string): string | undefined {
    const errors = (this.body as { errors?: Array<{ field: string; message: string }> } | null)?.errors;
    return errors?.find((error) => error.field === field)?.message;
  }
}

const API_BASE = process.env.API_BASE_URL ?? '';
const OFFLINE = 'The clinic could not be reached: check your connection and try again';
const FAULT = 'Something went wrong on our side: please try again, or call the clinic';

/**
 * One call of the public booking API. The patients' pages use `fetch` rather than the staff app's
 * client: they have no session, and the page stays light (docs/architecture.md, Online booking).
 */
export async function publicRequest<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new PublicApiError(0, OFFLINE, null);
  }
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (parsed as { message?: unknown } | null)?.message;
    throw new PublicApiError(
      response.status,
      typeof message === 'string' && response.status < 500 ? message : FAULT,
      parsed,
    );
  }
  return parsed as T;
}
