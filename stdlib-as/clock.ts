// The host's clock and time-zone rules (docs/abi.md §6, `svc_host.now` and `svc_host.tz_offset`).

// @ts-ignore: decorator
@external("svc_host", "now")
export declare function hostNow(): i64;

/**
 * Seconds east of UTC of the compile option's time zone at the wall-clock time `localSeconds` (seconds
 * since 1970-01-01T00:00 read as local time); see docs/abi.md for ambiguous and skipped times.
 */
// @ts-ignore: decorator
@external("svc_host", "tz_offset")
export declare function hostTimeZoneOffset(localSeconds: i64): i32;
