import { defineFunction } from './define.js';
import { BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'get_timezone_name',
  category: 'System',
  description:
    "Returns the name of the configured time zone; `local` resolves to the host's zone, and a fixed offset reads as `+HH:MM`.",
  parameters: [],
  fallible: true,
  returns: BYTES,
  pure: false,
  backing: { kind: 'js', library: 'Intl' },
  examples: [
    { title: "Get the IANA name of Vector's timezone", source: 'get_timezone_name!()', mode: 'type', returns: '"UTC"' },
  ],
});
