import { PlatctlError } from './errors.js';

/**
 * A failure to listen, said for people (pure): a busy port, a privileged one or an address this
 * machine does not have becomes a `config` error naming `host:port` and the flag that changes it.
 * Any other error is returned unchanged.
 */
export function listenError(err: unknown, host: string, port: number, flag: string): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const fix = `choose another with ${flag} (0 picks a free port)`;
  if (code === 'EADDRINUSE') {
    return new PlatctlError(
      'config',
      `${at} is already in use: stop what listens there or ${fix}`,
      { cause: err },
    );
  }
  if (code === 'EACCES') {
    return new PlatctlError('config', `no permission to listen on ${at}: ${fix}`, { cause: err });
  }
  if (code === 'EADDRNOTAVAIL') {
    return new PlatctlError('config', `${host} is not an address of this machine (${flag})`, {
      cause: err,
    });
  }
  return err;
}
