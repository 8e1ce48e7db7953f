import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';

export type JsonSchema = { [keyword: string]: unknown };

/** A format says it all: zod's long regular expression for it would only clutter the document. */
const formatsWithoutPattern = new Set(['uuid']);

/**
 * Zod schemas as OpenAPI 3.1 components (JSON Schema 2020-12), named by their keys. Request
 * bodies are described as accepted (`input`: before transforms), responses as sent (`output`).
 */
export function componentSchemas(
  io: 'input' | 'output',
  schemas: Record<string, $ZodType>,
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      if (typeof jsonSchema.format === 'string' && formatsWithoutPattern.has(jsonSchema.format)) {
        delete jsonSchema.pattern;
      }
    },
  });
  return Object.fromEntries(Object.entries(generated.schemas).map(([id, schema]) => [id, embedded(schema)]));
}

/** Each schema lives inside the document: no dialect or identifier of its own. */
function embedded(schema: JsonSchema): JsonSchema {
  const component: JsonSchema = { ...schema };
  delete component.$schema;
  delete component.$id;
  return component;
}

/** One zod schema, as accepted (`input`), to be placed inside another schema. */
export const inputSchema = (schema: $ZodType): JsonSchema =>
  embedded(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }));

/**
 * Adds keywords (descriptions, and the rules the handlers check in code) to properties of a
 * generated object schema. A name the schema does not have fails the build instead of documenting
 * a field that no longer exists.
 */
export function withPropertyKeywords(schema: JsonSchema, keywords: Record<string, JsonSchema>): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const [name, added] of Object.entries(keywords)) {
    const property = properties[name];
    if (property === undefined) throw new Error(`No property ${name} to describe`);
    properties[name] = { ...property, ...added };
  }
  return { ...schema, properties };
}
