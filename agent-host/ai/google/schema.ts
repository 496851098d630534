/**
 * A tool's JSON Schema (TypeBox) in the OpenAPI subset Gemini's `parameters` accept. Gemini
 * answers 400 to keywords it does not know, so: `const` and unions of literals become string
 * enums, `null` in a type or union becomes `nullable`, a one-variant union is inlined, and
 * keywords outside the subset (`$schema`, `additionalProperties`, `patternProperties`, `not`,
 * `exclusiveMinimum`, unknown string formats, …) are dropped.
 */

export type GoogleSchema = Record<string, unknown>;

const kept = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "properties",
  "required",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "anyOf",
  "default",
  "example",
  "propertyOrdering",
]);

/** Formats Gemini accepts, per type; others are dropped. */
const formats: Record<string, readonly string[]> = {
  string: ["enum", "date-time"],
  integer: ["int32", "int64"],
  number: ["float", "double"],
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isLiteral = (value: unknown): value is Record<string, unknown> => isObject(value) && ("const" in value || Array.isArray(value.enum));

export function cleanSchemaForGoogle(input: unknown): GoogleSchema {
  if (!isObject(input)) return {};
  const source: Record<string, unknown> = { ...input };
  const out: GoogleSchema = {};
  if ("const" in source && source.enum === undefined) source.enum = [source.const];
  if (Array.isArray(source.type)) {
    const types = source.type.filter((t) => t !== "null");
    if (types.length < source.type.length) out.nullable = true;
    source.type = types.length === 1 ? types[0] : undefined;
    if (types.length > 1) source.anyOf = types.map((type) => ({ type }));
  }
  const union = source.anyOf ?? source.oneOf;
  delete source.anyOf;
  delete source.oneOf;
  if (Array.isArray(union)) {
    const variants = union.filter((v) => !(isObject(v) && v.type === "null"));
    if (variants.length < union.length) out.nullable = true;
    if (variants.length > 0 && variants.every(isLiteral)) {
      source.enum = variants.flatMap((v) => ("const" in v ? [v.const] : (v.enum as unknown[])));
    } else if (variants.length === 1) {
      // Inline the only variant; the outer schema's own words (description) win.
      Object.assign(out, cleanSchemaForGoogle(variants[0]));
    } else if (variants.length > 1) {
      out.anyOf = variants.map(cleanSchemaForGoogle);
    }
  }
  for (const [key, value] of Object.entries(source)) {
    if (!kept.has(key) || value === undefined || value === null) continue;
    if (key === "properties" && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, cleanSchemaForGoogle(schema)]));
    } else if (key === "items") {
      out.items = cleanSchemaForGoogle(Array.isArray(value) ? value[0] : value);
    } else if (key === "enum" && Array.isArray(value)) {
      const values = value.filter((v) => v !== null && v !== undefined).map(String);
      if (values.length) out.enum = values;
    } else if (key === "anyOf" || key === "oneOf") {
      continue;
    } else {
      out[key] = value;
    }
  }
  // Gemini's enums are strings; a number or boolean enum is sent as its string form.
  if (out.enum) out.type = "string";
  if (out.type === undefined && out.properties) out.type = "object";
  if (out.type === undefined && out.items) out.type = "array";
  if (Array.isArray(out.required) && isObject(out.properties)) {
    const names = new Set(Object.keys(out.properties));
    out.required = out.required.filter((name) => typeof name === "string" && names.has(name));
    if (!(out.required as unknown[]).length) delete out.required;
  }
  if (typeof out.format === "string" && !(formats[String(out.type)] ?? []).includes(out.format)) delete out.format;
  if (out.type !== undefined && out.anyOf) delete out.type;
  return out;
}

/**
 * Whether the cleaned schema has an object without properties below its root (a free-form map
 * such as TypeBox's Record). Gemini's `parameters` reject that; such tools go as
 * `parametersJsonSchema`, the full JSON Schema.
 */
export function hasFreeFormObject(schema: GoogleSchema, root = true): boolean {
  const properties = isObject(schema.properties) ? Object.values(schema.properties) : [];
  if (!root && schema.type === "object" && properties.length === 0) return true;
  const children = [...properties, schema.items, ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
  return children.some((child) => isObject(child) && hasFreeFormObject(child, false));
}

/** The JSON Schema for `parametersJsonSchema`: as written, minus the meta keywords Gemini rejects. */
export function jsonSchemaForGoogle(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(jsonSchemaForGoogle);
  if (!isObject(input)) return input;
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key]) => key !== "$schema" && key !== "$id" && key !== "$comment")
      .map(([key, value]) => [key, jsonSchemaForGoogle(value)]),
  );
}
