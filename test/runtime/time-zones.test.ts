import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantsOfLocal } from '../../abi/time-zone.js';
import { offsetOfLocal, parseTimeZone, UTC } from '../../runtime/time-zones.js';

const seconds = (iso: string) => Date.parse(iso) / 1000;

test('names as chrono-tz accepts them; "" and "local" are the process zone', () => {
  assert.ok(parseTimeZone('Europe/Paris'));
  assert.ok(parseTimeZone('EST'));
  assert.is(parseTimeZone('europe/paris'), undefined);
  assert.is(parseTimeZone('utc'), undefined);
  assert.is(parseTimeZone('+01:00'), undefined);
  assert.is(parseTimeZone('Mars/Olympus'), undefined);
  assert.is(parseTimeZone('UTC'), UTC);
  assert.ok(parseTimeZone('local'));
  assert.ok(parseTimeZone(''));
});

test('offsets follow the zone rules, historical ones included', () => {
  const paris = parseTimeZone('Europe/Paris')!;
  assert.is(paris.offsetAt(seconds('2020-01-01T00:00:00Z')), 3600);
  assert.is(paris.offsetAt(seconds('2020-07-01T00:00:00Z')), 7200);
  assert.is(parseTimeZone('Africa/Monrovia')!.offsetAt(seconds('1970-01-01T00:00:00Z')), -(44 * 60 + 30));
  assert.is(parseTimeZone('Asia/Kolkata')!.offsetAt(seconds('1800-01-01T00:00:00Z')) % 60 !== 0, true);
});

test('local times in gaps and overlaps', () => {
  const newYork = parseTimeZone('America/New_York')!;
  assert.equal(instantsOfLocal(newYork, seconds('2020-03-08T02:30:00Z')), []);
  assert.equal(instantsOfLocal(newYork, seconds('2020-11-01T01:30:00Z')), [
    seconds('2020-11-01T05:30:00Z'),
    seconds('2020-11-01T06:30:00Z'),
  ]);
  assert.equal(instantsOfLocal(newYork, seconds('2020-06-01T12:00:00Z')), [seconds('2020-06-01T16:00:00Z')]);
  assert.is(offsetOfLocal(newYork, seconds('2020-11-01T01:30:00Z')), -4 * 3600);
  assert.is(offsetOfLocal(newYork, seconds('2020-03-08T02:30:00Z')), -4 * 3600, 'past the gap');
});

test.run();
