import { type ZodType, z } from 'zod';
import { JsonRows, responseSerializerCompiler } from './responseSerialization';

const visitSchema = z.object({
  id: z.number().int(),
  notes: z.string().nullable(),
  next: z.object({ date: z.string(), time: z.string() }).nullable(),
  status: z.enum(['pending', 'confirmed']),
  total_capped: z.boolean().optional(),
});

const compile = (checkAgainstZod: boolean) =>
  responseSerializerCompiler({ checkAgainstZod })({
    schema: visitSchema,
    method: 'GET',
    url: '/visits',
    httpStatus: '200',
  });

describe('response serialization', () => {
  it('writes only the fields of the schema, nulls included, as zod would', () => {
    const written = compile(false)({
      id: 7,
      notes: null,
      next: { date: '2026-12-01', time: '09:00', secret: 'left out' },
      status: 'pending',
      password_hash: 'never sent',
    });
    expect(JSON.parse(written)).toEqual({
      id: 7,
      notes: null,
      next: { date: '2026-12-01', time: '09:00' },
      status: 'pending',
    });
    expect(
      JSON.parse(compile(false)({ id: 8, notes: 'Bring X-rays "old"', next: null, status: 'confirmed' })),
    ).toEqual({ id: 8, notes: 'Bring X-rays "old"', next: null, status: 'confirmed' });
  });

  it('checked against zod (the tests), refuses an answer zod refuses', () => {
    expect(() => compile(true)({ id: 'seven', notes: null, next: null, status: 'pending' })).toThrow();
    expect(() => compile(true)({ id: 7, notes: null, next: null, status: 'lost' })).toThrow();
    expect(
      compile(true)({ id: 7, notes: null, next: null, status: 'pending', total_capped: true }),
    ).toContain('"total_capped":true');
  });

  it('writes a long list piece by piece into the same JSON, fields after the list included', () => {
    const listSchema = z.object({
      data: z.array(visitSchema),
      total: z.number().int(),
      next_cursor: z.string().optional(),
    });
    const serialize = responseSerializerCompiler({ checkAgainstZod: false })({
      schema: listSchema,
      method: 'GET',
      url: '/visits',
      httpStatus: '200',
    });
    const visit = (id: number) => ({
      id,
      notes: id % 3 === 0 ? null : `Zoë "${id}" 🦷 \\ line\nbreak`,
      next: id % 2 ? { date: '2026-12-01', time: '09:00', secret: 'left out' } : null,
      status: 'pending',
    });
    const { secret: _left, ...next } = visit(1).next ?? {};
    for (const count of [0, 1, 64, 65, 128, 129, 490]) {
      const data = Array.from({ length: count }, (_, index) => visit(index + 1));
      const written = serialize({ data, total: count, next_cursor: 'abc', extra: 'left out' });
      const expected = {
        data: data.map((row) => ({ ...row, next: row.next ? next : null })),
        total: count,
        next_cursor: 'abc',
      };
      expect(JSON.parse(written.toString())).toEqual(expected);
      // Long lists are bytes, UTF-8 as the answer's charset says.
      expect(typeof written === 'string').toBe(count <= 64);
    }
  });

  it('sends rows the database wrote as JSON as they are, and checks them against zod in the tests', () => {
    const listSchema = z.object({ data: z.array(visitSchema), total: z.number().int() });
    const compileList = (checkAgainstZod: boolean, schema: ZodType = listSchema) =>
      responseSerializerCompiler({ checkAgainstZod })({
        schema,
        method: 'GET',
        url: '/visits',
        httpStatus: '200',
      });
    const text = (id: number) => `{"id":${id},"notes":"Zoë \\"${id}\\"","next":null,"status":"pending"}`;
    for (const count of [0, 3, 64, 65, 200]) {
      const texts = Array.from({ length: count }, (_, index) => text(index + 1));
      for (const checked of [false, true]) {
        const written = compileList(checked)({ data: new JsonRows(texts), total: count });
        expect(written.toString()).toBe(`{"data":[${texts.join(',')}],"total":${count}}`);
      }
    }
    // A row that is not in the list's shape fails the tests' check.
    expect(() =>
      compileList(true)({
        data: new JsonRows(['{"id":"seven","notes":null,"next":null,"status":"pending"}']),
        total: 1,
      }),
    ).toThrow();
    // An answer whose list is not its first field is written from the rows' values.
    const totalFirst = z.object({ total: z.number().int(), data: z.array(visitSchema) });
    expect(
      JSON.parse(compileList(true, totalFirst)({ total: 1, data: new JsonRows([text(5)]) }).toString()),
    ).toEqual({
      total: 1,
      data: [{ id: 5, notes: 'Zoë "5"', next: null, status: 'pending' }],
    });
  });
});
