// `haversine(latitude1, longitude1, latitude2, longitude2, measurement_unit = "kilometers")`: the
// great-circle distance (rounded to 7 decimals) and the initial bearing in degrees (3 decimals), as VRL
// computes them on a sphere of the mean Earth radius.

import { Value, floatOf, newFloat, newObject, objectSet, bytesPtr, bytesLen } from '../value';
import { expectKinds } from './support/args';
import { equalsAscii } from '../text';
import { roundHalfAwayFromZero } from './support/rounding';
import { KindBit } from '../../abi/wire/kinds';

const EARTH_RADIUS_IN_KILOMETERS: f64 = 6_371_008.8 / 1000.0;
const EARTH_RADIUS_IN_MILES: f64 = EARTH_RADIUS_IN_KILOMETERS * 0.621_371_2;
const KEY_BEARING = memory.data<u8>([0x62, 0x65, 0x61, 0x72, 0x69, 0x6e, 0x67]);
const KEY_DISTANCE = memory.data<u8>([0x64, 0x69, 0x73, 0x74, 0x61, 0x6e, 0x63, 0x65]);

/** Rust's `to_radians`. */
function radians(v: Value): f64 {
  return floatOf(v) * (Math.PI / 180.0);
}

function roundTo(x: f64, scale: f64): Value {
  const rounded = roundHalfAwayFromZero(x * scale) / scale;
  return newFloat(isNaN(rounded) ? 0 : rounded);
}

export function fn_haversine(
  latitude1: Value,
  longitude1: Value,
  latitude2: Value,
  longitude2: Value,
  unit: Value,
): Value {
  const numbers = KindBit.Float;
  if (!expectKinds(latitude1, numbers) || !expectKinds(longitude1, numbers)) return 0;
  if (!expectKinds(latitude2, numbers) || !expectKinds(longitude2, numbers)) return 0;
  if (unit != 0 && !expectKinds(unit, KindBit.Bytes)) return 0;
  const miles = unit != 0 && equalsAscii(bytesPtr(unit), bytesLen(unit), 'miles');
  const lat1 = radians(latitude1);
  const lat2 = radians(latitude2);
  const dLat = lat2 - lat1;
  const dLon = radians(longitude2) - radians(longitude1);
  const sinLat = Math.sin(dLat / 2.0);
  const sinLon = Math.sin(dLon / 2.0);
  const a = sinLat * sinLat + Math.cos(lat1) * Math.cos(lat2) * sinLon * sinLon;
  const c = 2.0 * Math.atan2(Math.sqrt(a), Math.sqrt(1.0 - a));
  const distance = (miles ? EARTH_RADIUS_IN_MILES : EARTH_RADIUS_IN_KILOMETERS) * c;
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  const bearing = (Math.atan2(y, x) * (180.0 / Math.PI) + 360.0) % 360.0;
  const result = newObject(2);
  objectSet(result, KEY_BEARING, 7, roundTo(bearing, 1_000.0));
  objectSet(result, KEY_DISTANCE, 8, roundTo(distance, 10_000_000.0));
  return result;
}
