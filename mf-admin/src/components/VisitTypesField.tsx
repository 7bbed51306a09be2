import { type OnlineVisitType, TREATMENTS, type Treatment } from '@dental/shared';
import { Typography } from '@dental/shared/ui';
import { Checkbox } from '@dental/shared/ui/forms';
import './onlineBooking.css';

/** Who a treatment is offered to online: a treatment offered to neither is not offered online. */
export type Audience = 'newPatients' | 'returningPatients';
export type VisitTypeChoice = Record<Audience, boolean>;

const NOT_OFFERED: VisitTypeChoice = { newPatients: false, returningPatients: false };

/** The choice the checkboxes of `treatment` show for the saved visit types (unchecked when not offered). */
export function choiceOf(
  visitTypes: readonly OnlineVisitType[] | undefined,
  treatment: Treatment,
): VisitTypeChoice {
  const type = visitTypes?.find((candidate) => candidate.treatment === treatment);
  return type ? { newPatients: type.newPatients, returningPatients: type.returningPatients } : NOT_OFFERED;
}

/**
 * The visit types after one checkbox changed, in the server's shape: only the treatments offered (to
 * new patients, returning patients or both), in the order of TREATMENTS.
 */
export function withChoice(
  visitTypes: readonly OnlineVisitType[] | undefined,
  treatment: Treatment,
  audience: Audience,
  checked: boolean,
): OnlineVisitType[] {
  return TREATMENTS.flatMap((each) => {
    const choice = choiceOf(visitTypes, each);
    const next = each === treatment ? { ...choice, [audience]: checked } : choice;
    return next.newPatients || next.returningPatients ? [{ treatment: each, ...next }] : [];
  });
}

/**
 * Where the server's refusal of one visit type (`onlineBooking.visitTypes.<i>.<key>`) is shown: on
 * the visit types' field, naming the treatment at that place in what was sent. Answers null for any
 * other field.
 */
export function visitTypeError(
  field: string,
  message: string,
  sent: readonly OnlineVisitType[] | undefined,
): { name: string[]; message: string } | null {
  const match = /^onlineBooking\.visitTypes(?:\.(\d+))?(?:\.\w+)?$/.exec(field);
  if (!match) return null;
  const treatment = match[1] === undefined ? undefined : sent?.[Number(match[1])]?.treatment;
  return {
    name: ['onlineBooking', 'visitTypes'],
    message: treatment ? `${treatment}: ${message}` : message,
  };
}

const AUDIENCES: ReadonlyArray<{ key: Audience; label: string }> = [
  { key: 'newPatients', label: 'New patients' },
  { key: 'returningPatients', label: 'Returning patients' },
];

interface VisitTypesFieldProps {
  value?: OnlineVisitType[];
  onChange?: (value: OnlineVisitType[]) => void;
  disabled?: boolean;
  /** Given by the form's item, as to any of its controls. */
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

/**
 * The visit types offered online, as one row per treatment (all of them, in TREATMENTS order) with a
 * checkbox for new patients and one for returning patients. Its value is the server's array.
 */
export function VisitTypesField({
  value,
  onChange,
  disabled = false,
  id,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
}: VisitTypesFieldProps) {
  return (
    <fieldset
      id={id}
      aria-label="Visit types offered online"
      aria-describedby={describedBy}
      aria-invalid={invalid}
      className="online-visit-types"
    >
      {TREATMENTS.map((treatment) => {
        const choice = choiceOf(value, treatment);
        const offered = choice.newPatients || choice.returningPatients;
        return (
          // Read as "Regular Cleaning, group: New patients, checkbox, checked".
          <fieldset key={treatment} className="online-visit-type">
            <legend className={offered ? 'online-visit-type-name offered' : 'online-visit-type-name'}>
              {treatment}
            </legend>
            <Typography.Text type="secondary" className="online-visit-type-off">
              {offered ? '' : 'Not offered online'}
            </Typography.Text>
            <div className="online-visit-type-choices">
              {AUDIENCES.map(({ key, label }) => (
                <Checkbox
                  key={key}
                  checked={choice[key]}
                  disabled={disabled}
                  onChange={(event) => onChange?.(withChoice(value, treatment, key, event.target.checked))}
                >
                  {label}
                </Checkbox>
              ))}
            </div>
          </fieldset>
        );
      })}
    </fieldset>
  );
}
