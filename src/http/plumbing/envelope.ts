/**
 * Wire envelopes (docs/reference/wire.md §3): lists are `{"<plural>": [{"<singular>": {...}}], "pagination": {...}}`
 * with the data key first, single objects are `{"<singular>": {...}}`, deletes are `{"success": true}`.
 * The schemas here drive both serialization order and the OpenAPI document.
 */
import { Type, type TSchema } from 'typebox';

export const Pagination = Type.Object({
  per_page: Type.Integer(),
  page_no: Type.Integer(),
  total: Type.Integer(),
});

export interface Page {
  per_page: number;
  page_no: number;
  offset: number;
}

/** Query properties every paginated list accepts. */
// Paging values are never stored, only clamped and multiplied into an offset (pageOf), so they take
// any safe integer rather than the integer column range the validator gives other integers.
export const pageQuery = {
  per_page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Items per page; default 25, values above the maximum are clamped',
    }),
  ),
  page_no: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: '1-based page number; default 1' }),
  ),
};

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export function pageOf(q: { per_page?: number; page_no?: number }, max = MAX_PER_PAGE): Page {
  const per_page = Math.min(q.per_page ?? DEFAULT_PER_PAGE, max);
  const page_no = q.page_no ?? 1;
  // A page far past the end is still just an empty page; keep the offset a safe integer for the database.
  const offset = Math.min((page_no - 1) * per_page, Number.MAX_SAFE_INTEGER);
  return { per_page, page_no, offset };
}

export function listSchema(plural: string, singular: string, item: TSchema) {
  return Type.Object({
    [plural]: Type.Array(Type.Object({ [singular]: item })),
    pagination: Pagination,
  });
}

export function oneSchema(singular: string, item: TSchema) {
  return Type.Object({ [singular]: item });
}

export const Success = Type.Object({ success: Type.Boolean() });

export const ErrorBody = Type.Object(
  { error_message: Type.String() },
  { description: 'Every API error: error_message is the first and only key' },
);

export function listBody<T>(plural: string, singular: string, items: T[], page: Page, total: number) {
  return {
    [plural]: items.map((x) => ({ [singular]: x })),
    pagination: { per_page: page.per_page, page_no: page.page_no, total },
  };
}

export function oneBody<T>(singular: string, item: T) {
  return { [singular]: item };
}

/** Standard error responses documented on every authenticated route. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
};
