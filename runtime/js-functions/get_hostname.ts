import { hostname } from 'node:os';
import type { JsFunction } from '../imports.js';

/** get_hostname(): the machine's host name. */
export const get_hostname: JsFunction = () => hostname();
