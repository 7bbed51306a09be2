import { type APIRequestContext, expect, type TestInfo } from '@playwright/test';

/**
 * A journey's own data, made through the API as the clinic's admin: its own dentist (their days,
 * their availability), its own patients and its own dentist account. The journeys of one worker share
 * one database (fixtures.ts), so a journey that books, counts or expects exact lists on the demo's
 * dentists and patients would see what the journeys before it did; on its own records it sees only
 * its own, whatever ran before it or beside it.
 */

/** A user name and password to sign in with. */
export interface Credentials {
  username: string;
  password: string;
}

/** A dentist of the journey's own. */
export interface JourneyDentist {
  id: number;
  /** Their display name, as every screen shows it: `Dr. <first> <last><tag>`. */
  name: string;
  /** The days of the week they work (0 Sunday ... 6 Saturday), as the day helpers take them. */
  workingDays: readonly number[];
}

/** A patient of the journey's own. */
export interface JourneyPatient {
  id: number;
  name: string;
  phone: string;
  email: string;
}

export interface DentistOptions {
  /** The first name (the last name is the journey's tag): tells a journey's dentists apart. */
  first?: string;
  /** Days of the week (0 Sunday ... 6 Saturday): Monday to Friday unless given. */
  workingDays?: readonly number[];
  /**
   * Availability days from `from` to `to` (`YYYY-MM-DD`, inclusive) on their working days, with
   * `slots` (the suggested slots unless given). Without it the dentist is open their working hours
   * (Monday to Friday 09:00-17:00, Saturday 09:00-13:00) within the practice's hours.
   */
  availability?: { from: string; to: string; slots?: readonly TimeSlot[] };
}

export interface TimeSlot {
  start: string;
  end: string;
  available?: boolean;
}

export interface PatientOptions {
  phone?: string;
  /** The whole e-mail address; one of the journey's own unless given. */
  email?: string;
  dateOfBirth?: string;
}

/** What a journey makes of its own, and its names. Given to each journey by the `journey` fixture. */
export interface Journey {
  /** Letters and digits no other journey's names carry (from the test's id and the clock). */
  readonly tag: string;
  /** A person's name of this journey: `<first> <last><tag>`. */
  name(first: string, last?: string): string;
  /** The admin's access token (signed in once, in a request context of the journey's own). */
  adminToken(): Promise<string>;
  /** A dentist of this journey's own, deleted when the journey ends. */
  dentist(options?: DentistOptions): Promise<JourneyDentist>;
  /** A patient of this journey's own (name from `name(first, last)`). */
  patient(first: string, last?: string, options?: PatientOptions): Promise<JourneyPatient>;
  /** A dentist account linked to the dentist (it signs in as that dentist), removed when the journey ends. */
  dentistAccount(dentist: JourneyDentist): Promise<Credentials>;
  /** Availability days for the dentist on their working days from `from` to `to`. */
  fillAvailability(
    dentist: JourneyDentist,
    from: string,
    to: string,
    slots?: readonly TimeSlot[],
  ): Promise<void>;
}

const ADMIN: Credentials = { username: 'admin', password: 'admin123' };

/** The journey's tag: the test's id as letters (it is hex), then the clock in base 36. */
function tagOf(testInfo: TestInfo): string {
  const letters = [...testInfo.testId.replace(/[^0-9a-f]/g, '').slice(0, 4)]
    .map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16)))
    .join('');
  return `${letters}${Date.now().toString(36)}`;
}

/** Signs in through the API in `request`'s own cookie jar; answers the access token. */
export async function tokenOf(request: APIRequestContext, account: Credentials): Promise<string> {
  const response = await request.post('/auth/login', { data: { ...account, remember: false } });
  expect(response.status(), `sign-in of ${account.username}`).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** `working_days` as the API takes it: 1 Monday ... 7 Sunday, from 0 Sunday ... 6 Saturday. */
const workingDaysField = (weekdays: readonly number[]) =>
  [...new Set(weekdays.map((day) => (day === 0 ? 7 : day)))].sort().join('');

async function created<Body>(answer: Promise<{ status(): number; text(): Promise<string> }>, what: string) {
  const response = await answer;
  const text = await response.text();
  expect(response.status(), `${what}: ${text}`).toBe(201);
  return JSON.parse(text) as Body;
}

/**
 * The journey's records, made through `request` (a request context of the journey's own, so the
 * page's sign-in is not touched). `cleanUp` cancels the visits to come of the journey's dentists and
 * deletes them and their accounts: the screens that list every dentist (the booking form's choice, the
 * Dentists and Availability screens) show the demo's and the running journey's alone.
 */
export function journeyOf(request: APIRequestContext, testInfo: TestInfo) {
  const tag = tagOf(testInfo);
  let token: Promise<string> | undefined;
  let made = 0;
  const dentists: number[] = [];
  const accounts: number[] = [];
  const adminToken = () => {
    token ??= tokenOf(request, ADMIN);
    return token;
  };
  const headers = async () => ({ authorization: `Bearer ${await adminToken()}` });
  const name = (first: string, last = 'Own') => `${first} ${last}${tag}`;
  // Each e-mail address, license and user name of the journey is its own.
  const serial = () => {
    made += 1;
    return `${tag}${made}`;
  };

  const fillAvailability: Journey['fillAvailability'] = async (dentist, from, to, slots) => {
    await created(
      request.post('/api/availability/fill', {
        headers: await headers(),
        data: { dentist_id: dentist.id, from, to, ...(slots ? { time_slots: slots } : {}) },
      }),
      `availability of ${dentist.name}`,
    );
  };

  const journey: Journey = {
    tag,
    name,
    adminToken,
    async dentist(options = {}) {
      const workingDays = options.workingDays ?? [1, 2, 3, 4, 5];
      const dentistName = `Dr. ${name(options.first ?? 'Dana', 'Own')}`;
      const own = serial();
      const body = await created<{ id: number }>(
        request.post('/api/dentists', {
          headers: await headers(),
          data: {
            name: dentistName,
            email: `dentist.${own}@clinic.example`,
            phone: '555-0181',
            specialty: 'General Dentistry',
            license: `DDS-${own}`,
            working_days: workingDaysField(workingDays),
          },
        }),
        `dentist ${dentistName}`,
      );
      dentists.push(body.id);
      const dentist = { id: body.id, name: dentistName, workingDays };
      const { availability } = options;
      if (availability)
        await fillAvailability(dentist, availability.from, availability.to, availability.slots);
      return dentist;
    },
    async patient(first, last = 'Own', options = {}) {
      const patientName = name(first, last);
      const patient = {
        name: patientName,
        phone: options.phone ?? '555-0182',
        email: options.email ?? `${first.toLowerCase()}.${serial()}@patients.example`,
        dateOfBirth: options.dateOfBirth ?? '1985-04-03',
      };
      const body = await created<{ id: number }>(
        request.post('/api/patients', { headers: await headers(), data: patient }),
        `patient ${patientName}`,
      );
      return { id: body.id, name: patientName, phone: patient.phone, email: patient.email };
    },
    async dentistAccount(dentist) {
      const account = { username: `dentist.${serial()}`, password: 'a-long-secret-of-theirs' };
      const body = await created<{ id: number }>(
        request.post('/api/users', {
          headers: await headers(),
          data: {
            name: dentist.name,
            email: `${account.username}@brightsmile.example`,
            role: 'dentist',
            dentist_id: dentist.id,
            ...account,
          },
        }),
        `account of ${dentist.name}`,
      );
      accounts.push(body.id);
      return account;
    },
    fillAvailability,
  };

  async function cleanUp() {
    if (dentists.length === 0 && accounts.length === 0) return;
    const bearer = await headers();
    for (const id of accounts) {
      const removed = await request.delete(`/api/users/${id}`, { headers: bearer });
      expect([200, 404], `account ${id} removed`).toContain(removed.status());
    }
    for (const id of dentists) {
      // A dentist with visits to come is kept: those the journey left are cancelled first.
      const visits = await request.get(`/api/dentists/${id}/appointments`, {
        headers: bearer,
        params: { from: '2000-01-01', limit: 100 },
      });
      if (visits.status() === 404) continue; // The journey deleted them itself.
      expect(visits.status(), `visits of dentist ${id}`).toBe(200);
      const { data } = (await visits.json()) as { data: Array<{ id: number; status: string }> };
      for (const visit of data.filter((one) => one.status === 'pending' || one.status === 'confirmed')) {
        await request.patch(`/api/appointments/${visit.id}/status`, {
          headers: bearer,
          data: { status: 'cancelled' },
        });
      }
      const removed = await request.delete(`/api/dentists/${id}`, { headers: bearer });
      expect([200, 404], `dentist ${id} removed: ${await removed.text()}`).toContain(removed.status());
    }
  }

  return { journey, cleanUp };
}
