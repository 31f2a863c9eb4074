/**
 * What a client may send to update an inspection report: the body of `PUT /v1/inspection_reports/:id`
 * (and /v2), and the input of updateInspectionReport (./update.ts), derived from it. Value sets: ./status.ts.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';
import { Enum } from '../../core/schema.js';
import { DEFECT_STATUSES, SIGN_OFF_STATUSES } from './status.js';

const opt = Type.Optional;
const S = (max = 255) => Type.String({ maxLength: max });

const DefectStatusEntry = Type.Object({
  status: Enum(DEFECT_STATUSES),
  resolved_defects: Type.Array(Id('Defect id of this report'), { minItems: 1, maxItems: 500 }),
  mechanic_id: opt(Id('The mechanic (an admin or fleet user); default the acting admin')),
  mechanic_name: opt(
    Type.String({ maxLength: 255, description: 'Accepted; the mechanic is identified by mechanic_id' }),
  ),
  mechanic_note: opt(Type.Union([S(2000), Type.Null()])),
  mechanic_signed_at: opt(Type.String({ maxLength: 64 })),
});

export const InspectionReportUpdateBody = Type.Object({
  external_ids_attributes: opt(
    Type.Array(Type.Object({ external_id: S(), integration_name: S() }), {
      maxItems: 50,
      description: 'Replaces the external ids',
    }),
  ),
  status: opt(
    Enum(
      SIGN_OFF_STATUSES,
      'Mechanic sign-off for every open defect: corrected (repaired) or harmless (no repair needed)',
    ),
  ),
  inspection_report: opt(Type.Object({ status: opt(Enum(SIGN_OFF_STATUSES)) })),
  defect_statuses: opt(
    Type.Array(DefectStatusEntry, {
      maxItems: 100,
      description: 'Per-defect sign-off; a single entry object is accepted too',
    }),
  ),
  mechanic_id: opt(Id('The mechanic signing off (an admin or fleet user); default the acting admin')),
  mechanic_signed_at: opt(Type.String({ maxLength: 64 })),
  mechanic_note: opt(Type.Union([S(2000), Type.Null()])),
  mechanic_signature_url: opt(Type.Union([S(2000), Type.Null()])),
  time: opt(Type.String({ maxLength: 64, description: 'Accepted and ignored' })),
});

/**
 * The update as the service takes it: the body without what the route settles (the nested
 * `inspection_report.status` is read as `status`; `time` is ignored). A defect entry's mechanic_name is
 * accepted for compatibility and not stored: a name does not identify a user.
 */
export type ReportUpdate = Omit<Static<typeof InspectionReportUpdateBody>, 'inspection_report' | 'time'>;
