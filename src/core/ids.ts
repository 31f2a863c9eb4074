/** Record ids: 32-bit in storage on both databases, so a larger value is refused before it reaches one. */
import { Type } from 'typebox';

export const ID_MAX = 2_147_483_647;
/** The schema of an id in a body, a query or a path: a whole number from 1 to ID_MAX. */
export const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: ID_MAX, description });
