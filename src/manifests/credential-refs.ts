import { isCredentialVariable, systemTreeOf } from '../core/credentials.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { Diagnostic } from './diagnostics.js';

/**
 * The `passwordFrom` reference a manifest can be seen to misuse without reading anything (pure): an
 * `env` naming one of platctl's own credentials (the platform key, git token, webhook secret,
 * ...), or a `file` in `/proc`, `/dev` or `/sys` (`/proc/self/environ` holds the key; `/dev/zero`
 * never ends). An error at the reference's position: the password would be sent to the platform.
 * What only the file system can tell (a symlink to a credential file, a file too large) is found
 * when the secret is read, at plan time, at the same position.
 */
export function credentialReferences(m: LoadedManifest): Diagnostic[] {
  const spec = (m.manifest as { spec?: { passwordFrom?: { env?: unknown; file?: unknown } } }).spec;
  const { env, file } = spec?.passwordFrom ?? {};
  const refused =
    typeof env === 'string' && isCredentialVariable(env)
      ? {
          code: 'refused-variable' as const,
          field: 'env',
          message: `passwordFrom.env names ${env}, one of platctl's own credentials; a password must come from its own variable or file`,
        }
      : typeof file === 'string' && systemTreeOf(file) !== undefined
        ? {
            code: 'refused-file' as const,
            field: 'file',
            message: `passwordFrom.file ${file} is in ${systemTreeOf(file)}, a kernel or device file, not a password; refused`,
          }
        : undefined;
  if (refused === undefined) return [];
  const at = m.positionOf(['spec', 'passwordFrom', refused.field]);
  return [
    {
      severity: 'error',
      code: refused.code,
      message: refused.message,
      file: at.file,
      line: at.line,
      col: at.col,
      key: m.key,
    },
  ];
}
