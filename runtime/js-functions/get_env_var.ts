// get_env_var(name): the process's environment variable, or Rust's `VarError` text when it is unset (Node
// reads the environment as text, so the "not valid unicode" case cannot occur here).

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';

export const get_env_var: JsFunction = ([name]) => {
  const value = process.env[stringArg(name!)];
  if (value === undefined) throw new Error('environment variable not found');
  return value;
};
