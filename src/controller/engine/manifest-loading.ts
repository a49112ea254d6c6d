import { loadAndValidate } from '../../manifests/index.js';
import type { LoadPort } from '../../reconcile/run.js';
import type { ValidatePort } from './ports.js';
import { RevisionLoads } from './revision-loads.js';

// How the controller loads manifests: its own secrets hidden from `${VAR}` and `passwordFrom.env`,
// credential values refused, its `--var`/`--var-file` added to every load.

/** Variables never offered to `${VAR}` in manifests: a manifest must not be able to read them. */
const HIDDEN_ENV =
  /^(PLATCTL_API_KEY|PLATCTL_GIT_TOKEN|PLATCTL_WEBHOOK_SECRET|PLATCTL_CONTROL_TOKEN)$/;

/**
 * The process environment without the controller's own secrets: what manifests may read through
 * `${VAR}` and `passwordFrom.env`.
 */
export function manifestEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !HIDDEN_ENV.test(k)));
}

/**
 * `process.env` as a manifest's `passwordFrom.env` reads it, one variable at a time: the
 * controller's own secrets read as unset. A view, not a copy: {@link manifestEnv} per secret
 * copied the whole environment each time (5,000 users took 0.6–0.9 s of a run at 100,000).
 */
export const secretEnv: Readonly<Record<string, string | undefined>> = new Proxy(
  {},
  {
    get: (_, name) =>
      typeof name === 'string' && !HIDDEN_ENV.test(name) ? process.env[name] : undefined,
  },
);

/**
 * The manifests stage with the controller's own secrets hidden from variable substitution, and
 * substituted text holding one of `refusedValues` refused (read at each load: the array may grow
 * as credential files are rotated).
 */
export function controllerLoader(refusedValues: readonly string[] = []): LoadPort {
  return (input) =>
    loadAndValidate({ ...input, env: manifestEnv(), refusedValues: [...refusedValues] });
}

/** {@link controllerLoader} without values to refuse beyond the hidden variables. */
export const controllerLoad: LoadPort = controllerLoader();

/** `load` with the controller's `--var`/`--var-file` added to every load (none: `load` itself). */
export function withVariables(
  load: LoadPort,
  variables: { vars?: Readonly<Record<string, string>>; varFiles?: readonly string[] } = {},
): LoadPort {
  const { vars, varFiles } = variables;
  if (!vars && !varFiles?.length) return load;
  return (input) =>
    load({
      ...input,
      ...(vars ? { vars: { ...vars } } : {}),
      ...(varFiles?.length ? { varFiles: [...varFiles] } : {}),
    });
}

/** Validates a snapshot with the same loader the engine uses (file I/O only; nothing kept). */
export const validateManifests: ValidatePort = (dir) =>
  new RevisionLoads(controllerLoad).validate(dir);
