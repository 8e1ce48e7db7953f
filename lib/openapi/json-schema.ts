import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';

export type JsonSchema = { [keyword: string]: unknown };

/** A format says it all: zod's long regular expressions for these would only clutter the document. */
const formatsWithoutPattern = new Set(['uuid', 'email']);

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
  return Object.fromEntries(
    Object.entries(generated.schemas).map(([id, schema]) => {
      // Each component lives inside the document: no dialect or identifier of its own.
      const component: JsonSchema = { ...schema };
      delete component.$schema;
      delete component.$id;
      return [id, component];
    }),
  );
}

/**
 * Adds descriptions to properties of a generated object schema, for schemas that live in the
 * domain without them. A name the schema does not have fails the build instead of documenting a
 * field that no longer exists.
 */
export function withPropertyDescriptions(schema: JsonSchema, descriptions: Record<string, string>): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const [name, description] of Object.entries(descriptions)) {
    const property = properties[name];
    if (property === undefined) throw new Error(`No property ${name} to describe`);
    properties[name] = { ...property, description };
  }
  return { ...schema, properties };
}
