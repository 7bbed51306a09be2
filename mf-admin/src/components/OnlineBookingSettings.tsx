import {
  ONLINE_CUTOFF_HOURS_MAX,
  ONLINE_HORIZON_DAYS_MAX,
  ONLINE_HORIZON_DAYS_MIN,
  ONLINE_NOTICE_HOURS_MAX,
  ONLINE_OPEN_PER_CONTACT_MAX,
  type OnlineBooking,
  type OnlineVisitType,
  onlineBookingSchema,
} from '@dental/shared';
import { Alert, Card, Typography } from '@dental/shared/ui';
import { Form, InputNumber, Switch, schemaRules } from '@dental/shared/ui/forms';
import { VisitTypesField } from './VisitTypesField';
import './onlineBooking.css';

/**
 * The Settings page's Online booking tab (docs/product.md, Online booking): whether patients book on
 * the clinic's own page, `/book/<slug>`, and by what rules. The fields sit in the page's one form
 * (SettingsPage), saved with every other setting; `readOnly` is for everyone but an admin.
 */

const rulesFor = schemaRules(onlineBookingSchema);
type Rule = Exclude<keyof OnlineBooking, 'enabled' | 'visitTypes'>;

const RULES: ReadonlyArray<{
  rule: Rule;
  label: string;
  unit: string;
  min: number;
  max: number;
  help: string;
}> = [
  {
    rule: 'noticeHours',
    label: 'Notice',
    unit: 'hours',
    min: 0,
    max: ONLINE_NOTICE_HOURS_MAX,
    help: `No visit sooner than this many hours from now: 0 to ${ONLINE_NOTICE_HOURS_MAX} (a week).`,
  },
  {
    rule: 'horizonDays',
    label: 'Horizon',
    unit: 'days',
    min: ONLINE_HORIZON_DAYS_MIN,
    max: ONLINE_HORIZON_DAYS_MAX,
    help: `How many days ahead patients may book: ${ONLINE_HORIZON_DAYS_MIN} to ${ONLINE_HORIZON_DAYS_MAX}.`,
  },
  {
    rule: 'cutoffHours',
    label: 'Cut-off',
    unit: 'hours',
    min: 0,
    max: ONLINE_CUTOFF_HOURS_MAX,
    help: `Patients move or cancel online until this many hours before the visit, then call: 0 to ${ONLINE_CUTOFF_HOURS_MAX} (a week).`,
  },
  {
    rule: 'maxOpenPerContact',
    label: 'Visits per contact',
    unit: 'visits',
    min: 1,
    max: ONLINE_OPEN_PER_CONTACT_MAX,
    help: `Visits to come that one contact (e-mail or phone) may have booked online: 1 to ${ONLINE_OPEN_PER_CONTACT_MAX}.`,
  },
];

const field = (name: keyof OnlineBooking) => ['onlineBooking', name];

/**
 * The visit types checked by the server's rule. Not `rulesFor('visitTypes')`: its `required` would
 * refuse the empty list, which is allowed (nothing offered online yet).
 */
const visitTypesRule = {
  validator: async (_rule: unknown, value: unknown) => {
    const result = onlineBookingSchema.shape.visitTypes.safeParse(value ?? []);
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'This value is not valid');
  },
};

/** The booking page's address on this origin, with a copy button; what it does depends on the switch. */
function BookingPageAddress({ slug }: { slug: string }) {
  const enabled = Form.useWatch(field('enabled')) === true;
  const address = `${window.location.origin}/book/${slug}`;
  return (
    <Form.Item
      label="Web address"
      extra={
        enabled
          ? "Give patients this address, or link to it from the clinic's website."
          : 'While online booking is off, this page tells patients it is not available.'
      }
    >
      <Typography.Text
        className="online-booking-address"
        type={enabled ? undefined : 'secondary'}
        copyable={{ text: address, tooltips: ["Copy the booking page's address", 'Copied'] }}
      >
        {address}
      </Typography.Text>
    </Form.Item>
  );
}

/** A gentle word when online booking is on with nothing to book. */
function NothingOfferedWarning() {
  const enabled = Form.useWatch(field('enabled')) === true;
  const visitTypes = Form.useWatch(field('visitTypes')) as OnlineVisitType[] | undefined;
  if (!enabled || (visitTypes && visitTypes.length > 0)) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title="No visit type is offered online yet: patients cannot book until one is."
      style={{ marginBottom: 16 }}
    />
  );
}

export function OnlineBookingSettings({ readOnly, slug }: { readOnly: boolean; slug: string }) {
  return (
    <>
      <Card title="Patients' booking page" size="small" style={{ marginBottom: 16 }}>
        <Form.Item
          name={field('enabled')}
          label="Online booking"
          valuePropName="checked"
          extra="On: patients book visits themselves on the clinic's booking page, within the rules below, and move or cancel them there."
        >
          <Switch disabled={readOnly} />
        </Form.Item>
        {slug && <BookingPageAddress slug={slug} />}
      </Card>
      <Card title="Booking rules" size="small" style={{ marginBottom: 16 }}>
        <div className="online-rules">
          {RULES.map(({ rule, label, unit, min, max, help }) => (
            <Form.Item key={rule} name={field(rule)} label={label} rules={rulesFor(rule)} extra={help}>
              {/*
                No min/max: they would change a wrong number silently; the rule says what is wrong. The
                range is still announced to assistive technology.
              */}
              <InputNumber
                suffix={unit}
                aria-valuemin={min}
                aria-valuemax={max}
                disabled={readOnly}
                className="online-rule-input"
                style={{ width: '100%', maxWidth: 200 }}
              />
            </Form.Item>
          ))}
        </div>
      </Card>
      <Card title="Visit types offered online" size="small">
        <Typography.Paragraph type="secondary">
          Which treatments patients may book online, and who: new patients, returning patients or both. A
          treatment with neither ticked is not offered online.
        </Typography.Paragraph>
        <NothingOfferedWarning />
        <Form.Item name={field('visitTypes')} rules={[visitTypesRule]} style={{ marginBottom: 0 }}>
          <VisitTypesField disabled={readOnly} />
        </Form.Item>
      </Card>
    </>
  );
}
