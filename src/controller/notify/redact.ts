import { redact, scrub } from '../../core/errors.js';
import type { Alert } from './alerts.js';

/**
 * The alert with every string passed through {@link scrub} (the literal secrets the controller
 * knows: API key, git token, webhook secret, control token, the providers' own tokens and URLs)
 * and then {@link redact} (anything that looks like `password=...` or a credential URL), so a
 * diagnostic or an API error quoting a secret never leaves the controller. Pure; a copy.
 */
export function redactAlert(alert: Alert, secrets: readonly (string | undefined)[]): Alert {
  return clean(alert, secrets) as Alert;
}

function clean(value: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (typeof value === 'string') return redact(scrub(value, secrets));
  if (Array.isArray(value)) return value.map((v) => clean(v, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v, secrets)]));
  }
  return value;
}
