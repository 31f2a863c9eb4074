/**
 * Words for fault codes (docs/reference/domain-rules.md §5): FMI meanings (SAE J1939-73 table), common SPNs and J1939
 * source addresses, and OBD-II codes by system and subsystem (SAE J2012) with a few frequent codes by
 * name. Codes not listed get a generic description built from their parts.
 */

export const FMI_TEXT: Record<number, string> = {
  0: 'Data valid but above normal range, most severe',
  1: 'Data valid but below normal range, most severe',
  2: 'Data erratic, intermittent or incorrect',
  3: 'Voltage above normal, or shorted to high source',
  4: 'Voltage below normal, or shorted to low source',
  5: 'Current below normal, or open circuit',
  6: 'Current above normal, or grounded circuit',
  7: 'Mechanical system not responding or out of adjustment',
  8: 'Abnormal frequency, pulse width or period',
  9: 'Abnormal update rate',
  10: 'Abnormal rate of change',
  11: 'Root cause not known',
  12: 'Bad intelligent device or component',
  13: 'Out of calibration',
  14: 'Special instructions',
  15: 'Data valid but above normal range, least severe',
  16: 'Data valid but above normal range, moderately severe',
  17: 'Data valid but below normal range, least severe',
  18: 'Data valid but below normal range, moderately severe',
  19: 'Received network data in error',
  20: 'Data drifted high',
  21: 'Data drifted low',
  31: 'Condition exists',
};

export const SPN_TEXT: Record<number, string> = {
  84: 'Wheel-Based Vehicle Speed',
  91: 'Accelerator Pedal Position 1',
  94: 'Engine Fuel Delivery Pressure',
  97: 'Water In Fuel Indicator',
  100: 'Engine Oil Pressure',
  102: 'Engine Intake Manifold #1 Pressure',
  105: 'Engine Intake Manifold 1 Temperature',
  110: 'Engine Coolant Temperature',
  111: 'Engine Coolant Level',
  157: 'Engine Injector Metering Rail 1 Pressure',
  168: 'Battery Potential / Power Input 1',
  171: 'Ambient Air Temperature',
  174: 'Engine Fuel Temperature 1',
  175: 'Engine Oil Temperature 1',
  190: 'Engine Speed',
  629: 'Controller #1',
  639: 'J1939 Network #1',
  651: 'Engine Injector Cylinder #01',
  1569: 'Engine Protection Torque Derate',
  3216: 'Aftertreatment 1 Intake NOx',
  3226: 'Aftertreatment 1 Outlet NOx',
  3251: 'Aftertreatment 1 DPF Differential Pressure',
  3364: 'Aftertreatment 1 DEF Quality',
  3719: 'Aftertreatment 1 DPF Soot Load Percent',
  4364: 'Aftertreatment 1 SCR Conversion Efficiency',
  5246: 'Aftertreatment SCR Operator Inducement Severity',
};

export const SOURCE_ADDRESS_TEXT: Record<number, string> = {
  0: 'Engine #1',
  1: 'Engine #2',
  3: 'Transmission #1',
  11: 'Brakes - System Controller',
  15: 'Retarder - Engine',
  16: 'Retarder - Driveline',
  17: 'Cruise Control',
  23: 'Instrument Cluster #1',
  33: 'Body Controller',
  36: 'Off Vehicle Gateway',
  49: 'Cab Controller - Primary',
  61: 'Exhaust Emission Controller',
  71: 'Chassis Controller #1',
};

const OBD_SYSTEM: Record<string, string> = { P: 'Powertrain', C: 'Chassis', B: 'Body', U: 'Network' };
const OBD_P_SUBSYSTEM: Record<string, string> = {
  '0': 'fuel, air or emission controls',
  '1': 'fuel and air metering',
  '2': 'fuel and air metering (injector circuit)',
  '3': 'ignition system or misfire',
  '4': 'auxiliary emission controls',
  '5': 'vehicle speed, idle control and auxiliary inputs',
  '6': 'computer and output circuits',
  '7': 'transmission',
  '8': 'transmission',
  '9': 'transmission',
  A: 'hybrid propulsion',
  B: 'hybrid propulsion',
  C: 'hybrid propulsion',
};

export const OBD_TEXT: Record<string, string> = {
  P0101: 'Mass or Volume Air Flow Circuit Range/Performance',
  P0128: 'Coolant Thermostat (Coolant Temperature Below Thermostat Regulating Temperature)',
  P0171: 'System Too Lean (Bank 1)',
  P0172: 'System Too Rich (Bank 1)',
  P0300: 'Random/Multiple Cylinder Misfire Detected',
  P0301: 'Cylinder 1 Misfire Detected',
  P0401: 'Exhaust Gas Recirculation Flow Insufficient Detected',
  P0420: 'Catalyst System Efficiency Below Threshold (Bank 1)',
  P0442: 'Evaporative Emission System Leak Detected (small leak)',
  P0455: 'Evaporative Emission System Leak Detected (large leak)',
  P0505: 'Idle Air Control System',
  P0700: 'Transmission Control System (MIL Request)',
  P203F: 'Reductant Level Too Low',
  P2002: 'Diesel Particulate Filter Efficiency Below Threshold (Bank 1)',
  U0100: 'Lost Communication With ECM/PCM "A"',
};

export interface FaultLike {
  protocol: string;
  code: string;
  spn: number | null;
  fmi: number | null;
  source_address: number | null;
  is_sid: number | boolean;
  status: string;
  cleared: number | boolean;
  occurrence_count: number;
  lamps: string | null;
}

function severity(lampsJson: string | null): string | null {
  if (!lampsJson) return null;
  const l = JSON.parse(lampsJson) as Record<string, boolean>;
  if (l.red_stop) return 'critical';
  if (l.amber_warning || l.mil) return 'warning';
  if (l.protect) return 'info';
  return null;
}

/** The descriptive wire fields of a fault code (docs/reference/wire.md §4.13). */
export function faultText(f: FaultLike) {
  let label: string;
  let description: string;
  if (f.protocol === 'obd2') {
    label = f.code;
    const sub = f.code[0] === 'P' ? OBD_P_SUBSYSTEM[f.code[2]] : undefined;
    description =
      OBD_TEXT[f.code] ??
      `${OBD_SYSTEM[f.code[0]] ?? 'Unknown'}${sub ? ` - ${sub}` : ''} (${f.code[1] === '0' || f.code[1] === '2' ? 'generic' : 'manufacturer-specific'})`;
  } else {
    const kind = f.protocol === 'j1708' ? (f.is_sid ? 'SID' : 'PID') : 'SPN';
    label = `${kind} ${f.spn} FMI ${f.fmi}`;
    description = (f.protocol === 'j1939' && f.spn !== null ? SPN_TEXT[f.spn] : undefined) ?? `${kind} ${f.spn}`;
  }
  const sa = f.source_address;
  const saName =
    sa === null ? null : f.protocol === 'j1708' ? `MID ${sa}` : (SOURCE_ADDRESS_TEXT[sa] ?? `Source address ${sa}`);
  return {
    code_label: label,
    code_description: description,
    source_address_label: sa === null ? null : f.protocol === 'j1708' ? `MID ${sa}` : `SA ${sa}`,
    source_address_name: saName,
    fmi_description: f.fmi === null ? null : (FMI_TEXT[f.fmi] ?? 'Reserved'),
    type: f.occurrence_count > 1 ? 'intermittent' : 'constant',
    is_sid: !!f.is_sid,
    dtc_status: f.status === 'open' ? 'active' : f.cleared ? 'cleared' : 'inactive',
    dtc_severity: severity(f.lamps),
  };
}
