import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type Serializer = (data: unknown) => string;

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
    let compiled: Serializer;
    try {
      const jsonSchema = z.toJSONSchema(route.schema, {
        target: 'draft-7',
        io: 'output',
        unrepresentable: 'throw',
      });
      compiled = fastJsonStringify(withNullableTypes(jsonSchema) as Schema) as Serializer;
    } catch {
      return zodSerializer;
    }
    if (!options.checkAgainstZod) return compiled;
    return (data) => {
      const expected = zodSerializer(data);
      const written = compiled(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(
          `The compiled serializer of ${route.method} ${route.url} (${route.httpStatus}) wrote ${written} where zod wrote ${expected}`,
        );
      }
      return written;
    };
  };
}
