// What `validate` and `test` share: configuration paths as arguments, files of a forced format and
// directories as options, and the rest of the root options from their SVC_* variables and defaults.

import type { Command } from 'cac';
import { ROOT_OPTIONS, type RootOptions } from './root-options.js';
import { rootOptions } from './service.js';

/** Declares --config-dir, --config-json, --config-toml and --config-yaml. */
export function withConfigFileOptions(command: Command): Command {
  return command
    .option('-C, --config-dir <paths>', ROOT_OPTIONS.find((spec) => spec.key === 'configDir')!.description)
    .option('--config-json <paths>', 'Config files read as JSON (env SVC_CONFIG_JSON)')
    .option('--config-toml <paths>', 'Config files read as TOML (env SVC_CONFIG_TOML)')
    .option('--config-yaml <paths>', 'Config files read as YAML (env SVC_CONFIG_YAML)');
}

/**
 * The root options for a command whose config paths are its arguments (default /etc/svc/svc.yaml): SVC_CONFIG
 * and SVC_CONFIG_DIR do not apply, as Vector's `validate` and `test` take no such variables.
 */
export function configFileRootOptions(paths: readonly string[], parsed: Record<string, unknown>): RootOptions {
  const { SVC_CONFIG: _config, SVC_CONFIG_DIR: _dir, ...env } = process.env;
  const given = {
    configDir: parsed.configDir,
    configJson: parsed.configJson,
    configToml: parsed.configToml,
    configYaml: parsed.configYaml,
    color: parsed.color,
  };
  return rootOptions(paths.length > 0 ? { ...given, config: [...paths] } : given, env);
}
