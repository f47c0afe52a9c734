// encrypt_ip(ip, key, mode): the address encrypted by IPCrypt (./ipcrypt.ts), itself an address.

import type { JsFunction } from '../imports.js';
import { ipcrypt } from './support/ipcrypt.js';

export const encrypt_ip: JsFunction = ([ip, key, mode]) => ipcrypt(ip!, key!, mode!, false);
