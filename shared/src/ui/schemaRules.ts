import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import type { ApiError } from '../api/client';

/**
 * antd form rules from a shared zod object schema: the browser checks a field with the very rule the
 * server applies, and says the same words. A field whose schema refuses an empty value is marked
 * required.
 */
export function schemaRules<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return (field: keyof Shape & string, extra: Rule[] = []): Rule[] => {
    const fieldSchema = schema.shape[field] as unknown as z.ZodType;
    const required = !fieldSchema.safeParse(undefined).success;
    return [
      { required, message: 'This field is required' },
      {
        validator: async (_rule, value: unknown) => {
          // An empty field is the `required` rule's to report (once), or simply absent when optional.
          if (value === undefined || value === null || value === '') return;
          const result = fieldSchema.safeParse(value ?? '');
          if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'This value is not valid');
        },
      },
      ...extra,
    ];
  };
}

/**
 * Puts the server's `errors[{field, message}]` beside the form's fields. Answers the message still
 * to show in the form's banner: the server's own when no error names a field of this form.
 */
export function showServerErrors(
  form: FormInstance,
  error: ApiError,
  fields: readonly string[],
): string | null {
  const placed = error.fieldErrors.filter((fieldError) => fields.includes(fieldError.field));
  form.setFields(placed.map((fieldError) => ({ name: fieldError.field, errors: [fieldError.message] })));
  return placed.length > 0 && placed.length === error.fieldErrors.length ? null : error.message;
}
