import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { display } from '../../runtime/display.js';
import { DISPLAY_CASES } from '../support/display-cases.js';

test('display prints values as VRL does', () => {
  for (const [value, expected] of DISPLAY_CASES) assert.is(display(value), expected);
});

test.run();
