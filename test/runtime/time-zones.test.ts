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

test('offsets change at the transition second, also within a quarter of an hour asked about before', () => {
  const paris = parseTimeZone('Europe/Paris')!;
  const transition = seconds('2024-03-31T01:00:00Z');
  // The quarter the transition starts, then every second around it (the quarter before holds one offset).
  assert.is(paris.offsetAt(transition - 900), 3600);
  for (let t = transition - 1200; t < transition + 1200; t++)
    assert.is(paris.offsetAt(t), t < transition ? 3600 : 7200);
  // Monrovia's 1972 change from -00:44:30 to UTC fell inside a quarter: asked about first, then each second.
  const monrovia = parseTimeZone('Africa/Monrovia')!;
  const odd = seconds('1972-01-07T00:44:30Z');
  assert.is(monrovia.offsetAt(odd - 600), -2670);
  for (let t = odd - 900; t < odd + 900; t++) assert.is(monrovia.offsetAt(t), t < odd ? -2670 : 0);
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
