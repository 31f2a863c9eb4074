import { Type } from 'typebox';
import { Id } from '../core/ids.js';
import { Nullable } from '../core/schema.js';

export const NStr = () => Nullable(Type.String());
export const NInt = () => Nullable(Type.Integer());
export const NNum = () => Nullable(Type.Number());
export const NBool = () => Nullable(Type.Boolean());
export const DateTime = (description?: string) =>
  Type.String({
    description:
      description ??
      'ISO-8601 datetime: UTC, e.g. 2016-02-24T06:26:00Z, or with X-Time-Zone in that zone, e.g. 2016-02-23T22:26:00-08:00',
  });
export const NDateTime = () => Nullable(DateTime());
export const IdParams = Type.Object({ id: Id('Object id') });
/** An array query parameter of ids, in any of the accepted syntaxes (x[]=1, x=1,2, x=1&x=2, x[0]=1). */
export const IdList = (description: string) => Type.Optional(Type.Array(Id(), { description }));
export const StrList = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { description }));
