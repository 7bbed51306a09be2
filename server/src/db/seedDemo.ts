import type { Role } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import type { Database } from './client';
import { clinics, users } from './schema';

interface DemoStaff {
  username: string;
  password: string;
  name: string;
  email: string;
  role: Role;
}

interface DemoClinic {
  name: string;
  staff: DemoStaff[];
}

/** The demo clinics the README lists; the sign-in screen's hint shows the first clinic's accounts. */
export const DEMO_CLINICS: DemoClinic[] = [
  {
    name: 'Bright Smile Dental',
    staff: [
      {
        username: 'admin',
        password: 'admin123',
        name: 'Alex Morgan',
        email: 'admin@brightsmile.example',
        role: 'admin',
      },
      {
        username: 'receptionist',
        password: 'receptionist123',
        name: 'Riley Chen',
        email: 'reception@brightsmile.example',
        role: 'receptionist',
      },
      {
        username: 'dentist',
        password: 'dentist123',
        name: 'Dr. Sarah Johnson',
        email: 'sarah.johnson@brightsmile.example',
        role: 'dentist',
      },
    ],
  },
  {
    name: 'Harbor Dental',
    staff: [
      {
        username: 'harbor.admin',
        password: 'harbor123',
        name: 'Jordan Harbor',
        email: 'admin@harbordental.example',
        role: 'admin',
      },
      {
        username: 'harbor.reception',
        password: 'harbor123',
        name: 'Casey Brooks',
        email: 'reception@harbordental.example',
        role: 'receptionist',
      },
    ],
  },
];

/**
 * Puts the demo clinics in when the database has none. The advisory lock makes two processes
 * starting at once on one database seed it exactly once.
 */
export async function seedDemoData(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7315001)`);
    const existing = await tx.select({ id: clinics.id }).from(clinics).limit(1);
    if (existing.length > 0) return false;
    for (const clinic of DEMO_CLINICS) {
      const [created] = await tx.insert(clinics).values({ name: clinic.name }).returning({ id: clinics.id });
      if (!created) throw new Error('Clinic was not created');
      for (const member of clinic.staff) {
        await tx.insert(users).values({
          clinicId: created.id,
          username: member.username,
          email: member.email,
          name: member.name,
          role: member.role,
          passwordHash: await hashPassword(member.password),
        });
      }
    }
    return true;
  });
}
