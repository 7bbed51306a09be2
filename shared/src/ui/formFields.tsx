import { Col, Form, Input, Row, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { Children, type ReactNode } from 'react';

/** A select's options for values that read as themselves: statuses, specializations, treatments. */
export function optionsOf<Value extends string>(values: readonly Value[]) {
  return values.map((value) => ({ value, label: value }));
}

export interface NameEmailPhoneFieldsProps {
  /** The form's `schemaRules`: each field is checked with the server's rule for it. */
  rulesFor: (field: 'name' | 'email' | 'phone') => Rule[];
  /** An example name in the empty Full Name field: 'Dr. Jane Doe'. */
  namePlaceholder?: string;
}

export interface TextFieldProps<Name extends string> {
  /** The field as the server names it. */
  name: Name;
  label: string;
  /** The form's `schemaRules`: the field is checked with the server's rule for it. */
  rulesFor: (field: Name) => Rule[];
  type?: 'email' | 'tel';
  placeholder?: string;
  maxLength?: number;
}

/** A one-line text field checked by the server's rule; browsers offer no saved values (other people's). */
export function TextField<Name extends string>({ name, label, rulesFor, ...input }: TextFieldProps<Name>) {
  return (
    // antd types a field's name by the form's values, which this field does not know: a string names it.
    <Form.Item name={name as string} label={label} rules={rulesFor(name)}>
      <Input autoComplete="off" {...input} />
    </Form.Item>
  );
}

/** A person's Full Name, Email and Phone (a patient, a dentist), named as the server names them. */
export function NameEmailPhoneFields({ rulesFor, namePlaceholder }: NameEmailPhoneFieldsProps) {
  return (
    <>
      <TextField name="name" label="Full Name" rulesFor={rulesFor} placeholder={namePlaceholder} />
      <TextField name="email" label="Email" rulesFor={rulesFor} type="email" />
      <TextField name="phone" label="Phone" rulesFor={rulesFor} type="tel" />
    </>
  );
}

export interface StatusFieldProps {
  /** The statuses the record may have, as they read: 'active', 'inactive'. */
  statuses: readonly string[];
  /** The server's rule for `status`. */
  rules: Rule[];
  /** What the status means, below the select. */
  extra?: ReactNode;
}

/** A record's Status select (`status` on the wire). */
export function StatusField({ statuses, rules, extra }: StatusFieldProps) {
  return (
    <Form.Item name="status" label="Status" rules={rules} extra={extra}>
      <Select options={optionsOf(statuses)} />
    </Form.Item>
  );
}

export interface FieldRowProps {
  /** Each field's width on a wide screen, out of 24 (`[14, 10]`); on a phone each takes the whole row. */
  spans: readonly number[];
  children: ReactNode;
}

/** Fields side by side on a wide screen, one below the other on a phone. */
export function FieldRow({ spans, children }: FieldRowProps) {
  return (
    <Row gutter={12}>
      {Children.map(children, (field, index) => (
        <Col xs={24} sm={spans[index]}>
          {field}
        </Col>
      ))}
    </Row>
  );
}
