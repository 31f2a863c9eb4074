/** The exact wire body of a vehicle created with only a number, and the user summary it embeds. */

/** A vehicle as POST /v1/vehicles {number} makes it, with the server's id and times, then `over`. */
export function plainVehicle(v: any, over: Record<string, unknown> = {}) {
  return {
    id: v.id,
    company_id: v.company_id,
    number: v.number,
    status: 'active',
    ifta: true,
    vin: null,
    make: null,
    model: null,
    year: null,
    license_plate_state: null,
    license_plate_number: null,
    license_plate_country_code: null,
    metric_units: false,
    fuel_type: null,
    prevent_auto_odometer_entry: false,
    notes: null,
    incab_alert_live_stream_enable: -1,
    driver_facing_camera: -1,
    incab_audio_recording: -1,
    group_ids: [],
    created_at: v.created_at,
    updated_at: v.updated_at,
    permanent_driver: null,
    availability_details: {
      availability_status: 'in_service',
      out_of_service_reason: null,
      updated_at: v.created_at,
      additional_note: null,
      custom_driver_app_warning_prompt: null,
      updated_by_user: null,
    },
    eld_device: null,
    current_driver: null,
    carb_ctc_test_enabled: null,
    carb_ctc_emission_status: null,
    registration_expiry_date: null,
    external_ids: [],
    ...over,
  };
}

export const summaryOf = (u: any) => ({
  id: u.id,
  first_name: u.first_name,
  last_name: u.last_name,
  username: u.username ?? null,
  email: u.email,
  driver_company_id: u.driver_company_id ?? null,
  status: u.status,
  role: u.role,
});
