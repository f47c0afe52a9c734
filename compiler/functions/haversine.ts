import { defineFunction } from './define.js';
import { K, FLOAT, exactObject } from '../types/kind.js';

export default defineFunction({
  name: 'haversine',
  category: 'Map',
  description:
    'Computes the great-circle distance (in kilometers by default, or miles) and the initial bearing in degrees between two latitude/longitude points.',
  parameters: [
    { name: 'latitude1', kinds: K.Float, required: true },
    { name: 'longitude1', kinds: K.Float, required: true },
    { name: 'latitude2', kinds: K.Float, required: true },
    { name: 'longitude2', kinds: K.Float, required: true },
    { name: 'measurement_unit', kinds: K.Bytes, required: false, enum: ['kilometers', 'miles'] },
  ],
  returns: exactObject({ distance: FLOAT, bearing: FLOAT }),
  examples: [
    {
      title: 'Haversine in kilometers',
      source: 'haversine(0.0, 0.0, 10.0, 10.0)',
      returns: '{ "bearing": 44.561, "distance": 1568.5227233 }',
    },
    {
      title: 'Haversine in miles',
      source: 'haversine(0.0, 0.0, 10.0, 10.0, measurement_unit: "miles")',
      returns: '{ "bearing": 44.561, "distance": 974.6348468 }',
    },
  ],
});
