import {
  HOLD_EXPIRED,
  type PublicBooked,
  type PublicContact,
  type PublicFreeTimes,
} from '@dental/shared/domain';
import { useCallback, useState } from 'react';
import { confirmCode, type Hold, placeHold, sendCode } from '../api/bookingPage';
import { PublicApiError } from '../api/publicRequest';
import type { FreeTime } from '../components/TimeChoice';
import type { Choice } from '../components/VisitChoice';

/** Where the patient is: choosing, giving their details, typing the code, or booked. */
export type Step =
  | { step: 'choose' }
  | { step: 'details'; hold: Hold; picked: FreeTime }
  | { step: 'code'; hold: Hold; picked: FreeTime }
  | { step: 'booked'; booked: PublicBooked };

/** A refusal that lets the held time go: the patient starts from the times again. */
const holdGone = (error: PublicApiError) => error.status === 404 || error.status === 410;

/**
 * The booking page's steps (docs/product.md, Online booking): a picked time is held, a code goes to
 * the e-mail, the code books it. A hold let go (expired, too many codes or tries) sends the patient
 * back to the times with the reason.
 */
export function useBookingSteps(
  slug: string,
  times: { show: (times: PublicFreeTimes) => void; readAgain: () => void },
) {
  const [step, setStep] = useState<Step>({ step: 'choose' });
  const [notice, setNotice] = useState<string | null>(null);
  const [contact, setContact] = useState<PublicContact | null>(null);
  const [picking, setPicking] = useState(false);

  // Back at the times, they are read again: the list from before the pick is minutes old.
  const { show: showTimes, readAgain } = times;
  const startOver = useCallback(
    (reason: string | null) => {
      setNotice(reason);
      setStep({ step: 'choose' });
      readAgain();
    },
    [readAgain],
  );

  const pick = async (choice: Choice, picked: FreeTime) => {
    setPicking(true);
    setNotice(null);
    try {
      const hold = await placeHold(slug, {
        visit_type_id: choice.visitType,
        dentist_id: choice.dentistId,
        date: choice.date,
        time: picked.time,
      });
      setStep({ step: 'details', hold, picked });
    } catch (error) {
      if (!(error instanceof PublicApiError)) throw error;
      setNotice(error.message);
      // Taken meanwhile: the answer carries the day's nearest free times.
      const times = (error.body as { times?: PublicFreeTimes['times'] } | null)?.times;
      if (error.status === 409 && times) showTimes({ date: choice.date, times });
    } finally {
      setPicking(false);
    }
  };

  const guarded = async (action: () => Promise<void>) => {
    try {
      await action();
    } catch (error) {
      if (error instanceof PublicApiError && holdGone(error)) return startOver(error.message);
      throw error;
    }
  };

  const send = (given: PublicContact) =>
    guarded(async () => {
      if (step.step === 'choose' || step.step === 'booked') return;
      const sent = await sendCode(step.hold.hold_id, given);
      setContact(given);
      setStep({ step: 'code', hold: { ...step.hold, expires_at: sent.expires_at }, picked: step.picked });
    });

  const resend = () =>
    guarded(async () => {
      if (step.step !== 'code' || !contact) return;
      const sent = await sendCode(step.hold.hold_id, contact);
      setStep({ step: 'code', hold: { ...step.hold, expires_at: sent.expires_at }, picked: step.picked });
    });

  const confirm = (code: string) =>
    guarded(async () => {
      if (step.step !== 'code') return;
      setStep({ step: 'booked', booked: await confirmCode(step.hold.hold_id, code) });
    });

  const editDetails = () => {
    if (step.step === 'code') setStep({ step: 'details', hold: step.hold, picked: step.picked });
  };

  const expired = useCallback(() => startOver(HOLD_EXPIRED), [startOver]);

  return { step, notice, contact, picking, pick, send, resend, confirm, editDetails, startOver, expired };
}
