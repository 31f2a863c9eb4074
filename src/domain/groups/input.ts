/**
 * What a client may send to create or change a group and its members: the bodies of `POST`/`PUT
 * /v1/groups` and `POST /v1/groups/:id/users|vehicles`, which the console's group forms are checked
 * against too (src/http/console/groups.ts).
 */
import { Type } from 'typebox';
import { Id } from '../../core/ids.js';

const opt = Type.Optional;

export const GroupBody = Type.Object({
  name: opt(Type.String({ maxLength: 255 })),
  parent_id: opt(Type.Union([Id(), Type.Null()])),
  user_id: opt(Type.Union([Id(), Type.Null()])),
});

/** Users or vehicles added to or removed from a group: 1 to 1,000 ids. */
export const GroupMemberIds = Type.Array(Id(), { minItems: 1, maxItems: 1000, description: 'User or vehicle ids' });
export const IdsBody = Type.Object({ ids: GroupMemberIds });
