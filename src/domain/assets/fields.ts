/** Value sets of the asset record (docs/reference/wire.md §4.24). */
export const ASSET_STATUSES = ['active', 'deactivated'] as const;
export const ASSET_AVAILABILITY = ['in_service', 'out_of_service'] as const;
/** Nullable text fields a client may set. */
export const ASSET_TEXT_FIELDS = [
  'custom_type',
  'vin',
  'make',
  'model',
  'license_plate_state',
  'license_plate_number',
  'notes',
] as const;
/** Nullable measurements: weights (gvwr, gawr) in lb or kg, length in ft or m, per the *_metric_units flags. */
export const ASSET_NUMBER_FIELDS = ['gvwr', 'gawr', 'length'] as const;
/** Boolean fields, stored as 0/1. */
export const ASSET_BOOL_FIELDS = ['length_metric_units', 'weight_metric_units', 'leased'] as const;
