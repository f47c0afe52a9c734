import type { JsFunction } from '../imports.js';

/** get_timezone_name(): the instance's time zone; `local` (or empty) is the process's zone as Intl names it. */
export const get_timezone_name: JsFunction = (_args, context) =>
  context.timezone === '' || context.timezone === 'local'
    ? new Intl.DateTimeFormat().resolvedOptions().timeZone
    : context.timezone;
