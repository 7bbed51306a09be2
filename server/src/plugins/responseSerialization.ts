import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type Serializer = (data: unknown) => string;
/** A long list's answer is written as bytes (piecewiseListSerializer); Fastify sends a Buffer as it is. */
type BodySerializer = (data: unknown) => string | Buffer;

/**
 * A list's rows that the database has already written as JSON, each in the shape T (the route's
 * list item): an answer `{ data: answerRows(rows), … }` sends them as they are.
 */
export class JsonRows<T> {
  /** Never set: ties the texts to the shape they are written in. */
  declare private readonly shape?: T;
  constructor(readonly texts: string[]) {}

  get length(): number {
    return this.texts.length;
  }

  /** The rows as values (the tests' check against zod, a serializer that cannot take texts). */
  parsed(): T[] {
    return this.texts.map((text) => JSON.parse(text) as T);
  }
}

/**
 * A list's rows, values or texts, where a route's answer types its list. Texts stay texts: only the
 * route's serializer takes them (it writes them out as they are), which is why the type is asserted.
 */
export function answerRows<T>(rows: T[] | JsonRows<T>): T[] {
  return rows as T[];
}

/** `value` with the rows of a JsonRows list parsed, for a serializer that writes values. */
function withParsedRows(value: unknown): unknown {
  const data = (value as { data?: unknown } | null)?.data;
  return data instanceof JsonRows ? { ...(value as object), data: data.parsed() } : value;
}

/** Rows written at once into one piece of a long list's answer. */
const ROWS_PER_PIECE = 64;
const LIST_START = '{"data":[';

/** `anyOf: [X, { type: 'null' }]` as X that may be null: fast-json-stringify tells anyOf branches apart by validating each value. */
function withNullableTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullableTypes);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, withNullableTypes(value)] as const);
  const schema: Record<string, unknown> = Object.fromEntries(entries);
  const branches = schema.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullIndex = branches.findIndex(
      (branch) => branch && typeof branch === 'object' && (branch as { type?: unknown }).type === 'null',
    );
    const other = branches[1 - nullIndex] as Record<string, unknown> | undefined;
    if (nullIndex !== -1 && other && typeof other.type === 'string') {
      const { anyOf: _branches, ...rest } = schema;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return schema;
}

/**
 * Responses are written by serializers compiled once per route from the route's zod schema (as
 * JSON Schema, by fast-json-stringify), as Fastify does with JSON Schemas: only the schema's fields
 * go out, in its order. Validating every answer with zod and then JSON.stringify took a fifth of
 * the API's time on a month of 480 appointments. A schema JSON Schema cannot state (a transform)
 * keeps zod's serializer.
 *
 * `checkAgainstZod` (the tests) writes every answer both ways and fails a request whose two answers
 * differ (as JSON values: the order of fields may not be the same), so the whole API suite proves
 * the compiled serializers say what zod's would.
 */
export function responseSerializerCompiler(options: {
  checkAgainstZod: boolean;
}): FastifySerializerCompiler<ZodType> {
  return (route) => {
    const zodSerializer: Serializer = zodSerializerCompiler(route);
    let serializer: BodySerializer;
    try {
      const jsonSchema = z.toJSONSchema(route.schema, {
        target: 'draft-7',
        io: 'output',
        unrepresentable: 'throw',
      });
      const compiled = fastJsonStringify(withNullableTypes(jsonSchema) as Schema) as Serializer;
      serializer =
        piecewiseListSerializer(jsonSchema, compiled) ?? ((data) => compiled(withParsedRows(data)));
    } catch {
      return (data) => zodSerializer(withParsedRows(data));
    }
    // Fastify's type says a serializer answers a string; a Buffer is sent as it is (its length known).
    if (!options.checkAgainstZod) return serializer as Serializer;
    return ((data) => {
      const expected = zodSerializer(withParsedRows(data));
      const written = serializer(data);
      if (!isDeepStrictEqual(JSON.parse(written.toString()), JSON.parse(expected))) {
        throw new Error(
          `The compiled serializer of ${route.method} ${route.url} (${route.httpStatus}) wrote ${written} where zod wrote ${expected}`,
        );
      }
      return written;
    }) as Serializer;
  };
}

/**
 * An answer `{ data: [rows…], …}` whose list is long (a month of 490 visits is 156 KB) is written
 * piece by piece into bytes. Written whole, it was one string of a thousand joined parts, which
 * Fastify measures (Buffer.byteLength) and the socket encodes: V8 first copies the parts into one
 * flat string, and a string over 128 KB is a large object of its own. That copy cost a month 1.3 ms
 * of the API's CPU, twice what writing its rows did; pieces of 64 rows are encoded each on its own,
 * 0.4 ms in all (Node 20). A short list is written as before, whole; rows the database wrote
 * (JsonRows) are joined as they are, however few.
 */
function piecewiseListSerializer(jsonSchema: unknown, whole: Serializer): BodySerializer | null {
  const schema = jsonSchema as {
    type?: unknown;
    properties?: Record<string, { type?: unknown }>;
    definitions?: unknown;
    $defs?: unknown;
  };
  const listSchema = schema.properties?.data;
  if (
    schema.type !== 'object' ||
    listSchema?.type !== 'array' ||
    Object.keys(schema.properties ?? {})[0] !== 'data'
  )
    return null;
  // The rows' schema may refer to the answer's shared definitions.
  const references = { definitions: schema.definitions, $defs: schema.$defs };
  const writeRows = fastJsonStringify(
    withNullableTypes({ ...references, ...listSchema }) as Schema,
  ) as Serializer;
  /** `row,row,…` of `data` from `start`, one piece. */
  const piece = (data: unknown[] | JsonRows<unknown>, start: number) => {
    if (data instanceof JsonRows)
      return Buffer.from(data.texts.slice(start, start + ROWS_PER_PIECE).join(','));
    const written = Buffer.from(writeRows(data.slice(start, start + ROWS_PER_PIECE)));
    return written.subarray(1, written.length - 1);
  };
  return (value) => {
    const data = (value as { data?: unknown } | null)?.data;
    const prewritten = data instanceof JsonRows;
    if (!prewritten && (!Array.isArray(data) || data.length <= ROWS_PER_PIECE)) return whole(value);
    const list = data as unknown[] | JsonRows<unknown>;
    // The answer without its rows, `{"data":[],…}`: its fields after the list, as the schema orders them.
    const envelope = whole({ ...(value as object), data: [] });
    if (!envelope.startsWith(`${LIST_START}]`)) return whole(withParsedRows(value));
    const pieces: Buffer[] = [Buffer.from(LIST_START)];
    for (let start = 0; start < list.length; start += ROWS_PER_PIECE) {
      if (start > 0) pieces.push(Buffer.from(','));
      pieces.push(piece(list, start));
    }
    pieces.push(Buffer.from(envelope.slice(LIST_START.length)));
    return Buffer.concat(pieces);
  };
}
