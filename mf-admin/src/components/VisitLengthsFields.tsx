import {
  BOOKING_GRIDS,
  DENTIST_PART_STEP,
  type DentistPart,
  dentistPartProblem,
  dentistPartSchema,
  practiceSettingsUpdateSchema,
  TREATMENTS,
  type Treatment,
  TURNOVER_MINUTES_MAX,
  TURNOVER_MINUTES_MIN,
  TURNOVER_MINUTES_STEP,
  treatmentMinutesSchema,
  turnoverMinutesSchema,
  VISIT_MINUTES_MAX,
  VISIT_MINUTES_MIN,
  VISIT_MINUTES_STEP,
  visitMinutes,
} from '@dental/shared';
import { Flex, Typography } from '@dental/shared/ui';
import { Form, InputNumber, Select, schemaRules } from '@dental/shared/ui/forms';
import { useEffect, useRef } from 'react';
import './visitLengths.css';

const lengthRules = schemaRules(treatmentMinutesSchema);
const partRules = schemaRules(dentistPartSchema);
const settingsRules = schemaRules(practiceSettingsUpdateSchema);
const GRID_OPTIONS = BOOKING_GRIDS.map((minutes) => ({ value: minutes, label: `${minutes} minutes` }));

const lengthName = (treatment: Treatment) => ['treatmentMinutes', treatment];
const partName = (treatment: Treatment, end: keyof DentistPart) => ['dentistParts', treatment, end];

/** A length the visit may have (5-480 minutes in steps of 5), or null while the field holds another. */
function validLength(value: unknown): number | null {
  return visitMinutes.safeParse(value).success ? (value as number) : null;
}

/** A turnover the clinic may have, or 0 while the field holds another. */
function validTurnover(value: unknown): number {
  return turnoverMinutesSchema.safeParse(value).success ? (value as number) : 0;
}

/** The part as typed, when it fits a visit of `length` minutes; null otherwise. */
function fittingPart(from: unknown, to: unknown, length: number): DentistPart | null {
  if (typeof from !== 'number' || typeof to !== 'number') return null;
  const part = { dentistFrom: from, dentistTo: to };
  return dentistPartProblem(part, length) ? null : part;
}

/**
 * What a treatment's chair-time bar shows, in words: "Chair 60 min + 10 min turnover; dentist from
 * minute 10 to 50". `part` is null while the dentist's fields hold a part that does not fit.
 */
export function chairTimeLabel(length: number, turnover: number, part: DentistPart | null): string {
  const chair =
    turnover > 0 ? `Chair ${length} min + ${turnover} min turnover` : `Chair ${length} min, no turnover`;
  if (!part) return `${chair}; the dentist's part needs correcting`;
  if (part.dentistFrom === 0 && part.dentistTo === length) return `${chair}; dentist throughout the visit`;
  return `${chair}; dentist from minute ${part.dentistFrom} to ${part.dentistTo}`;
}

/**
 * A treatment's chair time: the visit and the turnover after it (hatched), the dentist's part shaded
 * within the visit. Follows the fields as they are typed; its words are its accessible name.
 */
function ChairTimeBar({ treatment }: { treatment: Treatment }) {
  const length = validLength(Form.useWatch(lengthName(treatment)));
  const turnover = validTurnover(Form.useWatch('turnoverMinutes'));
  const from: unknown = Form.useWatch(partName(treatment, 'dentistFrom'));
  const to: unknown = Form.useWatch(partName(treatment, 'dentistTo'));
  if (length === null) return null;
  const part = fittingPart(from, to, length);
  const label = chairTimeLabel(length, turnover, part);
  return (
    <div className="chair-time" role="img" aria-label={label} title={label}>
      <div className="chair-time-visit" style={{ flexGrow: length }}>
        {part && (
          <div
            className="chair-time-dentist"
            style={{
              left: `${(part.dentistFrom / length) * 100}%`,
              width: `${((part.dentistTo - part.dentistFrom) / length) * 100}%`,
            }}
          />
        )}
      </div>
      {turnover > 0 && <div className="chair-time-turnover" style={{ flexGrow: turnover }} />}
    </div>
  );
}

/**
 * One treatment: its length, when the dentist is needed within it (minutes from the start), and the
 * bar of its chair time. A part that ran to the visit's end keeps doing so as the length is changed.
 */
function TreatmentTimeFields({ treatment, disabled }: { treatment: Treatment; disabled: boolean }) {
  const form = Form.useFormInstance();
  const watched = Form.useWatch(lengthName(treatment));
  // The last valid length shown: what a part's end is compared with when the length is typed over.
  const lastLength = useRef<number | null>(null);
  useEffect(() => {
    const length = validLength(watched);
    if (length !== null) lastLength.current = length;
  }, [watched]);

  const followLength = (value: number | string | null) => {
    const length = validLength(value);
    if (length === null) return;
    const previous = lastLength.current;
    lastLength.current = length;
    const toName = partName(treatment, 'dentistTo');
    if (previous !== null && previous !== length && form.getFieldValue(toName) === previous) {
      form.setFieldValue(toName, length);
    }
  };

  // The part's end is checked against its start and the visit's length, as the server checks it on save.
  const endFits = {
    validator: async (_rule: unknown, value: unknown) => {
      const length = validLength(form.getFieldValue(lengthName(treatment)));
      const from: unknown = form.getFieldValue(partName(treatment, 'dentistFrom'));
      if (length === null || typeof value !== 'number' || typeof from !== 'number') return;
      const problem = dentistPartProblem({ dentistFrom: from, dentistTo: value }, length);
      if (problem?.end === 'dentistTo') throw new Error(problem.message);
    },
  };

  return (
    <div className="treatment-time">
      <Form.Item name={lengthName(treatment)} label={treatment} rules={lengthRules(treatment)}>
        {/*
          No min/max: they would change a wrong number silently (500 into 480); the rule says what
          is wrong. The range is still announced to assistive technology.
        */}
        <InputNumber
          step={VISIT_MINUTES_STEP}
          aria-valuemin={VISIT_MINUTES_MIN}
          aria-valuemax={VISIT_MINUTES_MAX}
          suffix="minutes"
          disabled={disabled}
          className="visit-length-input"
          style={{ width: '100%' }}
          onChange={followLength}
        />
      </Form.Item>
      <div className="treatment-time-part">
        <Form.Item
          name={partName(treatment, 'dentistFrom')}
          label="Dentist from"
          rules={partRules('dentistFrom')}
        >
          <InputNumber
            step={DENTIST_PART_STEP}
            aria-label={`${treatment}: dentist from (minute)`}
            aria-valuemin={0}
            disabled={disabled}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item
          name={partName(treatment, 'dentistTo')}
          label="Dentist to"
          dependencies={[lengthName(treatment), partName(treatment, 'dentistFrom')]}
          rules={partRules('dentistTo', [endFits])}
        >
          <InputNumber
            step={DENTIST_PART_STEP}
            aria-label={`${treatment}: dentist to (minute)`}
            aria-valuemin={0}
            disabled={disabled}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </div>
      <ChairTimeBar treatment={treatment} />
    </div>
  );
}

/**
 * Each treatment's visit length, used when a booking gives none, with the part of it the dentist is
 * needed for; the turnover a chair is held after each visit; and the booking grid the day's start
 * times are offered on (docs/product.md, Settings). Checked by the rules the server applies.
 */
export function VisitLengthsFields({ disabled }: { disabled: boolean }) {
  return (
    <>
      <Typography.Paragraph type="secondary">
        {`How long each treatment's visit lasts when a booking does not say: from ${VISIT_MINUTES_MIN} to ${VISIT_MINUTES_MAX} minutes, in steps of ${VISIT_MINUTES_STEP}. "Dentist from" and "Dentist to" say when the dentist is needed, in minutes from the visit's start (0 to the length: throughout); the rest of the visit needs only the chair.`}
      </Typography.Paragraph>
      {/* Columns of equal width, as many as fit: five on a wide screen, one on a phone. */}
      <div className="treatment-times">
        {TREATMENTS.map((treatment) => (
          <TreatmentTimeFields key={treatment} treatment={treatment} disabled={disabled} />
        ))}
      </div>
      <Flex className="chair-time-legend" wrap gap={12} aria-hidden="true">
        <span>
          <span className="chair-time-swatch chair-time-dentist-swatch" /> Dentist
        </span>
        <span>
          <span className="chair-time-swatch chair-time-visit-swatch" /> Chair only
        </span>
        <span>
          <span className="chair-time-swatch chair-time-turnover-swatch" /> Turnover
        </span>
      </Flex>
      <Flex wrap gap={16}>
        <Form.Item
          name="turnoverMinutes"
          label="Turnover between visits (minutes)"
          rules={settingsRules('turnoverMinutes')}
          extra={`The chair is held this long after each visit for cleaning: ${TURNOVER_MINUTES_MIN} to ${TURNOVER_MINUTES_MAX} minutes, in steps of ${TURNOVER_MINUTES_STEP}.`}
          style={{ flex: '1 1 240px', marginBottom: 0 }}
        >
          {/* No min/max, as for the lengths: the rule says what is wrong. */}
          <InputNumber
            step={TURNOVER_MINUTES_STEP}
            aria-valuemin={TURNOVER_MINUTES_MIN}
            aria-valuemax={TURNOVER_MINUTES_MAX}
            disabled={disabled}
            style={{ width: '100%', maxWidth: 200 }}
          />
        </Form.Item>
        <Form.Item
          name="bookingGridMinutes"
          label="Booking grid"
          rules={settingsRules('bookingGridMinutes')}
          extra="The start times a day offers are this many minutes apart."
          style={{ flex: '1 1 240px', marginBottom: 0 }}
        >
          <Select options={GRID_OPTIONS} disabled={disabled} style={{ maxWidth: 200 }} />
        </Form.Item>
      </Flex>
    </>
  );
}
