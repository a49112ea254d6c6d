import { isCredentialVariable } from '../core/credentials.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { Diagnostic } from './diagnostics.js';

/**
 * `passwordFrom: {env: NAME}` naming one of platctl's own credentials (the platform key, git
 * token, webhook secret, ...): an error at the name's position, since the password would be the
 * credential itself, sent to the platform. Pure.
 */
export function credentialReferences(loaded: readonly LoadedManifest[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of loaded) {
    const spec = (m.manifest as { spec?: { passwordFrom?: { env?: unknown } } }).spec;
    const name = spec?.passwordFrom?.env;
    if (typeof name !== 'string' || !isCredentialVariable(name)) continue;
    const at = m.positionOf(['spec', 'passwordFrom', 'env']);
    out.push({
      severity: 'error',
      code: 'refused-variable',
      message: `passwordFrom.env names ${name}, one of platctl's own credentials; a password must come from its own variable or file`,
      file: at.file,
      line: at.line,
      col: at.col,
      key: m.key,
    });
  }
  return out;
}
