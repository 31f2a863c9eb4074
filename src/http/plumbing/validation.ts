/**
 * Two validators: query strings and path params arrive as text, so they are coerced (`"5"` → 5, a bare
 * value → a one-element array); JSON bodies are typed by the client, so they are checked as sent
 * (`{"first_name": 5}` is a 400, not the string "5").
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

function make(opts: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: true, useDefaults: true, allErrors: false, strict: false, ...opts });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const coercing = make({ coerceTypes: 'array' });
  const strict = make({ coerceTypes: false });
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object) as never;
}
