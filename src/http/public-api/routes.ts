import type { RouteModule } from '../api.js';
import { companiesRoutes } from './v1/companies.js';
import { usersRoutes } from './v1/users.js';
import { vehiclesRoutes } from './v1/vehicles.js';
import { groupsRoutes } from './v1/groups.js';
import { dispatchLocationsRoutes } from './v1/dispatch-locations.js';
import { dispatchesRoutes } from './v1/dispatches.js';
import { dispatchesV2Routes } from './v2/dispatches.js';
import { formsRoutes } from './v1/forms.js';
import { messagesRoutes } from './v1/messages.js';
import { fuelPurchasesRoutes } from './v1/fuel-purchases.js';
import { documentsRoutes } from './v1/documents.js';
import { geofencesRoutes } from './v1/geofences.js';
import { assetsRoutes } from './v1/assets.js';
import { assetLocationsV2Routes } from './v2/asset-locations.js';
import { inspectionReportsRoutes } from './v1/inspection-reports.js';
import { eldDevicesRoutes } from './v1/eld-devices.js';
import { freightVisibilityRoutes } from './v1/freight-visibility.js';
import { freightSharesRoutes } from './v1/freight-shares.js';
import { ingestRoutes } from '../device/ingest.js';
import { vehicleLocationsRoutes } from './v1/vehicle-locations.js';
import { vehicleLocationsV2Routes } from './v2/vehicle-locations.js';
import { vehicleLocationsV3Routes } from './v3/vehicle-locations.js';
import { driverLocationsRoutes } from './v1/driver-locations.js';
import { drivingPeriodsRoutes } from './v1/driving-periods.js';
import { idleEventsRoutes } from './v1/idle-events.js';
import { utilizationRoutes } from './v1/utilization.js';
import { utilizationV2Routes } from './v2/utilization.js';
import { faultCodesRoutes } from './v1/fault-codes.js';
import { driverPerformanceRoutes } from './v1/driver-performance.js';
import { speedingEventsRoutes } from './v1/speeding-events.js';
import { scorecardRoutes } from './v1/scorecard.js';
import { geofenceEventsRoutes } from './v1/geofence-events.js';
import { companyWebhooksRoutes } from './v1/company-webhooks.js';
import { availableTimeRoutes } from './v1/available-time.js';
import { hoursOfServiceRoutes } from './v1/hours-of-service.js';
import { hosViolationsRoutes } from './v1/hos-violations.js';
import { logsRoutes } from './v1/logs.js';
import { iftaRoutes } from './v1/ifta.js';
import { iftaReportRoutes } from './v1/ifta-reports.js';

/** Every API route module. An area adds its module here and nothing else. */
export const routeModules: RouteModule[] = [
  companiesRoutes,
  usersRoutes,
  vehiclesRoutes,
  groupsRoutes,
  dispatchLocationsRoutes,
  dispatchesRoutes,
  dispatchesV2Routes,
  formsRoutes,
  messagesRoutes,
  fuelPurchasesRoutes,
  documentsRoutes,
  geofencesRoutes,
  assetsRoutes,
  assetLocationsV2Routes,
  inspectionReportsRoutes,
  eldDevicesRoutes,
  freightVisibilityRoutes,
  freightSharesRoutes,
  ingestRoutes,
  companyWebhooksRoutes,
  vehicleLocationsRoutes,
  vehicleLocationsV2Routes,
  vehicleLocationsV3Routes,
  driverLocationsRoutes,
  drivingPeriodsRoutes,
  idleEventsRoutes,
  utilizationRoutes,
  utilizationV2Routes,
  faultCodesRoutes,
  driverPerformanceRoutes,
  speedingEventsRoutes,
  scorecardRoutes,
  geofenceEventsRoutes,
  availableTimeRoutes,
  hoursOfServiceRoutes,
  hosViolationsRoutes,
  logsRoutes,
  iftaRoutes,
  iftaReportRoutes,
];
