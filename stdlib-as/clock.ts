// The runtime's clock and time-zone rules (docs/abi.md §6, `svc_js.now` and `svc_js.tz_offset`).

// @ts-ignore: decorator
@external("svc_js", "now")
export declare function jsNow(): i64;

/**
 * Seconds east of UTC of the compile option's time zone at the wall-clock time `localSeconds` (seconds
 * since 1970-01-01T00:00 read as local time); see docs/abi.md for ambiguous and skipped times.
 */
// @ts-ignore: decorator
@external("svc_js", "tz_offset")
export declare function jsTimeZoneOffset(localSeconds: i64): i32;

/**
 * `jsTimeZoneOffset` in the zone named by the UTF-8 at [ptr, ptr + len) (a call's `timezone`); NO_ZONE_OFFSET
 * (abi/wire/strftime-program.ts) when the name is no zone.
 */
// @ts-ignore: decorator
@external("svc_js", "tz_offset_in")
export declare function jsNamedZoneOffset(ptr: usize, len: usize, localSeconds: i64): i32;
