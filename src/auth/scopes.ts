/**
 * The scope catalogue: every OAuth scope a route may require, with the plain words the consent page
 * shows. Scopes come from the API specification, plus `company_webhooks.manage` (docs/reference/wire.md §7.1).
 * A GET needs the area's read scope and any other method its write scope; a `.manage` grant includes
 * the matching `.read` (see hasScope).
 */
export const SCOPES = {
  'companies.read': "Read your company's details",
  'users.read': 'Read your drivers and fleet managers',
  'users.manage': 'Create and change your drivers and fleet managers',
  'vehicles.read': 'Read your vehicles',
  'vehicles.manage': 'Create and change your vehicles',
  'messages.read': 'Read messages sent to and from your drivers',
  'messages.manage': 'Send messages to your drivers',
  'fuel_purchases.read': 'Read your fuel purchases',
  'fuel_purchases.manage': 'Record and change fuel purchases',
  'groups.read': 'Read your groups',
  'groups.manage': 'Create and change your groups and their members',
  'eld_devices.read': 'Read your ELD devices',
  'inspection_reports.read': "Read your drivers' vehicle inspection reports",
  'fault_codes.read': "Read your vehicles' engine fault codes",
  'driver_performance_events.read': "Read your drivers' safety events (scorecards)",
  'hos_logs.available_time': "Read your drivers' available driving time",
  'hos_logs.hours_of_service': "Read your drivers' hours of service",
  'hos_logs.hos_violation': "Read your drivers' hours-of-service violations",
  'hos_logs.logs': "Read your drivers' hours-of-service logs",
  'locations.vehicle_locations_list': "Read your vehicles' current locations",
  'locations.vehicle_locations_single': "Read a vehicle's location history",
  'locations.driver_locations': "Read your drivers' current locations",
  'ifta_reports.trips': 'Read your IFTA trip reports',
  'ifta_reports.summary': "Read your vehicles' IFTA mileage summary",
  'utilization.driver_utilization': "Read your drivers' utilization",
  'utilization.vehicle_utilization': "Read your vehicles' utilization",
  'utilization.idle_events': "Read your vehicles' idle events",
  'documents.read': 'Read your documents',
  'dispatches.read': 'Read your dispatches',
  'dispatches.manage': 'Create and change your dispatches',
  'dispatch_locations.read': 'Read your dispatch locations',
  'dispatch_locations.manage': 'Create and change your dispatch locations',
  'forms.read': 'Read your dispatch forms',
  'form_entries.read': "Read your drivers' form entries",
  'freight_visibility_vehicle_locations.read': 'Read the locations of vehicles shared with you for freight visibility',
  'freight_visibility_vehicle_locations.manage': 'Subscribe to vehicle locations for freight visibility',
  'freight_visibility_asset_locations.read': 'Read the locations of assets shared with you for freight visibility',
  'freight_visibility_asset_locations.manage': 'Subscribe to asset locations for freight visibility',
  'company_webhooks.manage': "Manage your company's webhooks",
  // Scopes real clients and the scope docs use beyond the specification's list (docs/reference/wire.md §8.3).
  'assets.read': 'Read your assets (trailers and equipment)',
  'locations.asset_locations': "Read your assets' locations",
  'driving_periods.read': "Read your drivers' driving periods",
  'geofence_events.read': 'Read when your vehicles enter and leave geofences',
  'scorecard_summary.read': "Read your drivers' scorecard summaries",
  'hos_logs.manage': "Change your drivers' hours-of-service logs",
  'speeding_events.read': "Read your vehicles' speeding events",
  'camera_connections.read': "Read your dash cameras' connection status",
  'motive_card_transactions.read': 'Read your fuel card transactions',
  'freight_visibility.manage': 'Manage freight visibility sharing',
  // Read and write scopes for endpoint areas whose scope names are not published (docs/scopes.md).
  'company_webhooks.read': "Read your company's webhooks and their delivery log",
  'assets.manage': 'Create and change your assets',
  'geofences.read': 'Read your geofences',
  'geofences.manage': 'Create and change your geofences',
  'documents.manage': 'Upload and change your documents',
  'inspection_reports.manage': "Add external ids and mechanics' sign-off to your drivers' inspection reports",
  'freight_visibility.read': 'See which shippers and brokers your vehicles are shared with',
} as const;

export type Scope = keyof typeof SCOPES;

export function isScope(s: string): s is Scope {
  return Object.prototype.hasOwnProperty.call(SCOPES, s);
}
