// decrypt_ip(ip, key, mode): the address encrypt_ip encrypted, by IPCrypt (./ipcrypt.ts).

import type { JsFunction } from '../imports.js';
import { ipcrypt } from './support/ipcrypt.js';

export const decrypt_ip: JsFunction = ([ip, key, mode]) => ipcrypt(ip!, key!, mode!, true);
