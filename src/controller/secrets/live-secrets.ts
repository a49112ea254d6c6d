import { fixedSecret, type SecretValue } from './secret-file.js';

/** A credential as configured: a literal (environment, tests) or read on each use (a file). */
export type SecretInput = string | SecretValue;

/** The controller's own credentials, each asked on every use, and every value they have had. */
export interface LiveSecrets {
  readonly apiKey: SecretValue;
  readonly webhookSecret?: SecretValue;
  readonly controlToken?: SecretValue;
  /**
   * Every value these (and the git token) have had so far, growing when a file is rotated: the
   * literals that alerts and messages are scrubbed of. The same array throughout, so a holder
   * of it sees rotated values too.
   */
  readonly known: string[];
}

/**
 * Wraps the configured credentials so each use records its value in {@link LiveSecrets.known},
 * and reads each once now (a file that cannot be read fails the start here). I/O: whatever the
 * functions do.
 */
export async function liveSecrets(input: {
  readonly apiKey: SecretInput;
  readonly webhookSecret?: SecretInput | undefined;
  readonly controlToken?: SecretInput | undefined;
  readonly gitToken?: string | undefined;
}): Promise<LiveSecrets> {
  const known: string[] = [];
  const remember = (v: string) => {
    if (v && !known.includes(v)) known.push(v);
    return v;
  };
  const track = (v: SecretInput): SecretValue => {
    const get = typeof v === 'string' ? fixedSecret(v) : v;
    return async () => remember(await get());
  };
  if (input.gitToken) remember(input.gitToken);
  const apiKey = track(input.apiKey);
  const webhookSecret = input.webhookSecret !== undefined ? track(input.webhookSecret) : undefined;
  const controlToken = input.controlToken !== undefined ? track(input.controlToken) : undefined;
  await Promise.all([apiKey(), webhookSecret?.(), controlToken?.()]);
  return {
    apiKey,
    ...(webhookSecret ? { webhookSecret } : {}),
    ...(controlToken ? { controlToken } : {}),
    known,
  };
}
