/**
 * A console form checked as the API checks the same body: the API route's own schema through the same
 * (memoized) validator, refused with the API's own message (validation_failed, 422).
 */
import { AppError } from '../../core/errors.js';
import { validatorCompiler } from '../plumbing/validation.js';
import { describeValidation } from '../plumbing/error-handler.js';

type Check = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** The checker of `schema`, the body of `method url`: the body back, typed, or the API's refusal. */
export function apiBodyCheck<T>(schema: unknown, method: string, url: string): (body: Record<string, unknown>) => T {
  const check = validatorCompiler()({ schema: schema as never, httpPart: 'body', method, url }) as Check;
  return (body) => {
    if (!check(body)) throw new AppError('validation_failed', describeValidation(check.errors as never, 'body'));
    return body as T;
  };
}
