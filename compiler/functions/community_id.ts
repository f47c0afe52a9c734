import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'community_id',
  category: 'String',
  description:
    'Computes the Community ID of a network flow: a versioned, Base64-encoded SHA-1 hash of its addresses, ports and protocol, with an optional seed.',
  parameters: [
    { name: 'source_ip', kinds: K.Bytes, required: true },
    { name: 'destination_ip', kinds: K.Bytes, required: true },
    { name: 'protocol', kinds: K.Integer, required: true },
    { name: 'source_port', kinds: K.Integer, required: false },
    { name: 'destination_port', kinds: K.Integer, required: false },
    { name: 'seed', kinds: K.Integer, required: false },
  ],
  fallible: true,
  backing: { kind: 'js', library: 'node:crypto' },
  returns: BYTES,
  examples: [
    {
      title: 'Generate Community ID for TCP',
      source:
        'community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", source_port: 1122, destination_port: 3344, protocol: 6)',
      returns: '"1:wCb3OG7yAFWelaUydu0D+125CLM="',
    },
    {
      title: 'Generate Community ID for UDP',
      source:
        'community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", source_port: 1122, destination_port: 3344, protocol: 17)',
      returns: '"1:0Mu9InQx6z4ZiCZM/7HXi2WMhOg="',
    },
    {
      title: 'Generate Community ID for ICMP',
      source:
        'community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", source_port: 8, destination_port: 0, protocol: 1)',
      returns: '"1:crodRHL2FEsHjbv3UkRrfbs4bZ0="',
    },
    {
      title: 'Generate Community ID for RSVP',
      source: 'community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", protocol: 46)',
      returns: '"1:ikv3kmf89luf73WPz1jOs49S768="',
    },
  ],
});
