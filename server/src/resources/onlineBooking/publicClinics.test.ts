import {
  addMinutesToClinicTime,
  DENTIST_NOT_ONLINE,
  horizonMessage,
  ONLINE_BOOKING_NOT_HERE,
  type PublicClinic,
  type PublicFreeTimes,
  VISIT_TYPE_NOT_ONLINE,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicNow } from '../../db/clinicTime';
import { apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

const BRIGHT = '/public/clinics/bright-smile-dental';
const HARBOR = '/public/clinics/harbor-dental';

/** The clinic's public booking page's reads: off until an admin turns it on, then the desk's own free times. */
describe('online booking: the public clinic and its free times', () => {
  let app: FastifyInstance;
  let admin: string;
  let receptionist: string;
  let clinicId: number;
  const send = apiSender(() => app);
  const open = (url: string) => app.inject({ method: 'GET', url, remoteAddress: '203.0.113.7' });
  const turnOn = async (onlineBooking: Record<string, unknown>) => {
    const saved = await send(admin, 'PUT', '/api/settings', { onlineBooking });
    expect(saved.statusCode).toBe(200);
    return saved.json().onlineBooking;
  };
  /** The next day `from` days ahead or later that the dentist works and has free starts for a checkup. */
  const workingDay = async (dentistId: number, from: number) => {
    const today = (await clinicNow(app.database.db, clinicId)).date;
    for (let ahead = from; ahead < from + 21; ahead += 1) {
      const date = addDays(today, ahead);
      const staff = await send(
        receptionist,
        'GET',
        `/api/dentists/${dentistId}/free-times?date=${date}&treatment=Dental%20Checkup`,
      );
      if ((staff.json().times as string[]).length > 0) return { date, times: staff.json().times as string[] };
    }
    throw new Error('no working day found');
  };

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
  });
  afterAll(() => app.close());

  it('is off until the admin turns it on: an unknown slug and a clinic with it off answer alike', async () => {
    const settings = (await send(admin, 'GET', '/api/settings')).json();
    expect(settings.slug).toBe('bright-smile-dental');
    expect(settings.onlineBooking).toEqual({
      enabled: false,
      noticeHours: 2,
      horizonDays: 60,
      cutoffHours: 24,
      maxOpenPerContact: 2,
      visitTypes: [],
    });
    const off = await open(BRIGHT);
    const unknown = await open('/public/clinics/no-such-clinic');
    expect(off.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(off.json()).toEqual({ message: ONLINE_BOOKING_NOT_HERE });
    expect(unknown.body).toBe(off.body);
    expect((await open(`${BRIGHT}/free-times?visit_type=dental-checkup&date=2030-01-07`)).body).toBe(
      off.body,
    );
  });

  it('takes its rules from an admin only, each checked, and a refused save changes nothing', async () => {
    const before = (await send(admin, 'GET', '/api/settings')).json();
    expect(
      (await send(receptionist, 'PUT', '/api/settings', { onlineBooking: { enabled: true } })).statusCode,
    ).toBe(403);
    const tooFar = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: { enabled: true, horizonDays: 0 },
    });
    expect(tooFar.statusCode).toBe(400);
    expect(fieldErrorsOf(tooFar)).toEqual([
      { field: 'onlineBooking.horizonDays', message: 'At least 1 day' },
    ]);
    const nobody = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: {
        visitTypes: [{ treatment: 'Root Canal', newPatients: false, returningPatients: false }],
      },
    });
    expect(nobody.statusCode).toBe(400);
    expect(fieldErrorsOf(nobody)).toEqual([
      {
        field: 'onlineBooking.visitTypes.0.newPatients',
        message: 'Offer it to new patients, returning patients or both',
      },
    ]);
    const unknownField = await send(admin, 'PUT', '/api/settings', { onlineBooking: { open: true } });
    expect(unknownField.statusCode).toBe(400);
    expect((await send(admin, 'GET', '/api/settings')).json()).toEqual(before);
  });

  it('shows the clinic, the visit types it offers online, its active dentists and its rules', async () => {
    const saved = await turnOn({
      enabled: true,
      noticeHours: 2,
      visitTypes: [
        { treatment: 'Dental Checkup', newPatients: true, returningPatients: true },
        { treatment: 'Regular Cleaning', newPatients: false, returningPatients: true },
      ],
    });
    expect(saved).toMatchObject({ enabled: true, horizonDays: 60, cutoffHours: 24 });
    const settings = (await send(admin, 'GET', '/api/settings')).json();
    const page = await open(BRIGHT);
    expect(page.statusCode).toBe(200);
    const clinic = page.json() as PublicClinic;
    expect(clinic).toMatchObject({
      name: settings.practiceName,
      address: settings.address,
      phone: settings.phone,
      timeZone: settings.timeZone,
      rules: { notice_hours: 2, horizon_days: 60, cutoff_hours: 24 },
    });
    expect(clinic.visit_types).toEqual([
      {
        id: 'dental-checkup',
        name: 'Dental Checkup',
        duration: settings.treatmentMinutes['Dental Checkup'],
        new_patients: true,
        returning_patients: true,
      },
      {
        id: 'regular-cleaning',
        name: 'Regular Cleaning',
        duration: settings.treatmentMinutes['Regular Cleaning'],
        new_patients: false,
        returning_patients: true,
      },
    ]);
    const staffDentists = (await send(receptionist, 'GET', '/api/dentists?limit=100')).json().data as Array<{
      id: number;
      name: string;
      status: string;
    }>;
    expect(clinic.dentists.map((dentist) => dentist.name)).toEqual(
      staffDentists
        .filter((dentist) => dentist.status === 'active')
        .map((dentist) => dentist.name)
        .sort((a, b) => a.localeCompare(b)),
    );
    // Nothing of a patient, a user or the clinic's inner settings is on the public page.
    expect(Object.keys(clinic).sort()).toEqual(
      ['address', 'dentists', 'name', 'phone', 'rules', 'timeZone', 'visit_types'].sort(),
    );
    // The other clinic keeps its page off.
    expect((await open(HARBOR)).statusCode).toBe(404);
  });

  it("answers the desk's free times for a dentist, and for any dentist the first free at each start", async () => {
    const clinic = (await open(BRIGHT)).json() as PublicClinic;
    const dentist = clinic.dentists[0] as { id: number; name: string };
    const { date, times } = await workingDay(dentist.id, 3);
    const mine = await open(
      `${BRIGHT}/free-times?visit_type=dental-checkup&date=${date}&dentist_id=${dentist.id}`,
    );
    expect(mine.statusCode).toBe(200);
    const answer = mine.json() as PublicFreeTimes;
    const length = clinic.visit_types[0]?.duration as number;
    expect(answer.times).toEqual(
      times.map((time) => ({
        time,
        end_time: addMinutesToClinicTime({ date, time }, length).time,
        dentist_id: dentist.id,
        dentist_name: dentist.name,
      })),
    );
    const any = (
      await open(`${BRIGHT}/free-times?visit_type=dental-checkup&date=${date}`)
    ).json() as PublicFreeTimes;
    const starts = any.times.map((slot) => slot.time);
    expect(starts).toEqual([...new Set(starts)].sort());
    for (const time of times) expect(starts).toContain(time);
  });

  it('offers only chairs bookable online, nothing inside the notice and nothing past the horizon', async () => {
    const clinic = (await open(BRIGHT)).json() as PublicClinic;
    const dentist = clinic.dentists[0] as { id: number };
    const { date } = await workingDay(dentist.id, 3);
    const url = `${BRIGHT}/free-times?visit_type=dental-checkup&date=${date}&dentist_id=${dentist.id}`;
    await app.database.db.execute(
      sql`update chairs set bookable_online = false where clinic_id = ${clinicId}`,
    );
    try {
      expect((await open(url)).json().times).toEqual([]);
    } finally {
      await app.database.db.execute(
        sql`update chairs set bookable_online = true where clinic_id = ${clinicId}`,
      );
    }
    expect((await open(url)).json().times.length).toBeGreaterThan(0);

    // A notice longer than the days up to `date`: nothing that day is offered.
    await turnOn({ noticeHours: 168 });
    const near = await workingDay(dentist.id, 1);
    // The dentist works within the week the notice covers, and the page offers nothing that day.
    expect(near.date <= addDays((await clinicNow(app.database.db, clinicId)).date, 6)).toBe(true);
    const inside = await open(
      `${BRIGHT}/free-times?visit_type=dental-checkup&date=${near.date}&dentist_id=${dentist.id}`,
    );
    expect(inside.json().times).toEqual([]);
    await turnOn({ noticeHours: 2, horizonDays: 5 });
    const today = (await clinicNow(app.database.db, clinicId)).date;
    const far = await open(`${BRIGHT}/free-times?visit_type=dental-checkup&date=${addDays(today, 6)}`);
    expect(far.statusCode).toBe(400);
    expect(fieldErrorsOf(far)).toEqual([{ field: 'date', message: horizonMessage(5) }]);
    await turnOn({ horizonDays: 60 });
  });

  it('refuses a visit type not offered online, a dentist not on the page and malformed queries, by field', async () => {
    const date = addDays((await clinicNow(app.database.db, clinicId)).date, 3);
    const rootCanal = await open(`${BRIGHT}/free-times?visit_type=root-canal&date=${date}`);
    expect(rootCanal.statusCode).toBe(400);
    expect(fieldErrorsOf(rootCanal)).toEqual([{ field: 'visit_type', message: VISIT_TYPE_NOT_ONLINE }]);
    // Harbor's dentist, asked for through Bright Smile's page, is no dentist of this page.
    const harborDentist = await app.database.db.execute(
      sql`select d.id from dentists d join clinics c on c.id = d.clinic_id where c.slug = 'harbor-dental' limit 1`,
    );
    const otherId = Number((harborDentist.rows[0] as { id: number }).id);
    const other = await open(
      `${BRIGHT}/free-times?visit_type=dental-checkup&date=${date}&dentist_id=${otherId}`,
    );
    expect(other.statusCode).toBe(400);
    expect(fieldErrorsOf(other)).toEqual([{ field: 'dentist_id', message: DENTIST_NOT_ONLINE }]);
    for (const query of [
      'visit_type=dental-checkup&date=2027-13-40',
      'visit_type=dental-checkup',
      `visit_type=dental-checkup&date=${date}&dentist_id=-1`,
      `visit_type=dental-checkup&date=${date}&extra=1`,
    ]) {
      expect((await open(`${BRIGHT}/free-times?${query}`)).statusCode).toBe(400);
    }
  });

  it('limits each address, with Retry-After', async () => {
    const limited = await createTestApp({ publicRateLimit: 3 });
    try {
      const call = () =>
        limited.inject({
          method: 'GET',
          url: '/public/clinics/no-such-clinic',
          remoteAddress: '198.51.100.9',
        });
      for (let i = 0; i < 3; i += 1) expect((await call()).statusCode).toBe(404);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another address has its own budget.
      const elsewhere = await limited.inject({
        method: 'GET',
        url: '/public/clinics/no-such-clinic',
        remoteAddress: '198.51.100.10',
      });
      expect(elsewhere.statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
