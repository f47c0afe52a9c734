import { defineFunction } from './define.js';
import { K, FLOAT } from '../types/kind.js';

export default defineFunction({
  name: 'parse_bytes',
  category: 'Parse',
  description:
    'Converts a human-readable size such as `1.5GiB` into a number of the given `unit`; `base` says whether ambiguous units like `MB` count in powers of 2 or of 10.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'unit',
      kinds: K.Bytes,
      required: true,
      enum: ['B', 'EB', 'EiB', 'GB', 'GiB', 'MB', 'MiB', 'PB', 'PiB', 'TB', 'TiB', 'kB', 'kiB'],
    },
    { name: 'base', kinds: K.Bytes, required: false, default: '2', literal: true },
  ],
  fallible: true,
  returns: FLOAT,
  examples: [
    { title: 'Parse bytes (kilobytes)', source: 'parse_bytes!("1024KiB", unit: "MiB")', returns: '1.0' },
    { title: 'Parse kilobytes in default binary units', source: 'parse_bytes!("1KiB", unit: "B")', returns: '1024.0' },
    {
      title: 'Parse bytes in SI unit (terabytes)',
      source: 'parse_bytes!("4TB", unit: "MB", base: "10")',
      returns: '4000000.0',
    },
    {
      title: 'Parse gigabytes in decimal units',
      source: 'parse_bytes!("1GB", unit: "B", base: "10")',
      returns: '1000000000.0',
    },
    {
      title: 'Parse bytes in ambiguous unit (gigabytes)',
      source: 'parse_bytes!("1GB", unit: "B", base: "2")',
      returns: '1073741824.0',
    },
    {
      title: 'Parse gigabytes in ambiguous decimal units',
      source: 'parse_bytes!("1GB", unit: "MB", base: "2")',
      returns: '1024.0',
    },
  ],
});
