// The worker thread of blocking-io.ts: does each request with Node's asynchronous APIs and posts the reply,
// then wakes the waiting caller through the shared flag.

import { workerData, type MessagePort } from 'node:worker_threads';
import { lookupService } from 'node:dns/promises';
import type { IoReply, IoRequest } from './blocking-io.js';
import { httpRequest } from './io/http.js';
import { dnsLookup } from './io/dns.js';

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };

async function perform(request: IoRequest): Promise<IoReply> {
  try {
    switch (request.op) {
      case 'http':
        return { ok: true, value: await httpRequest(request) };
      case 'dns':
        return { ok: true, value: await dnsLookup(request) };
      case 'reverse_dns':
        return { ok: true, value: await reverseDns(request.address) };
    }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The host name of an address from the system's resolver (getnameinfo: the hosts file, then DNS). */
async function reverseDns(address: string): Promise<string> {
  const { hostname } = await lookupService(address, 0);
  if (hostname === address) throw new Error(`no host name found for ${address}`);
  return hostname;
}

port.on('message', async ({ id, request }: { id: number; request: IoRequest }) => {
  const reply = await perform(request);
  port.postMessage({ id, reply });
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
