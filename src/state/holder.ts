import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseHolder } from './types.js';

/** A lease holder for this process: its pid and host, with a unique id. */
export function processHolder(label = 'apply'): LeaseHolder {
  return {
    id: `${label}:${hostname()}:${process.pid}:${randomUUID()}`,
    pid: process.pid,
    host: hostname(),
  };
}

/**
 * True when `h` names a process on this host that no longer runs (I/O: signal 0 to its pid). A
 * holder on another host, or a pid that answers (even one reused by another process, or owned by
 * another user), is not provably dead. Containers that share a state file must have distinct host
 * names, which Kubernetes pods and default Docker containers do.
 */
export function holderIsDeadHere(h: { readonly pid: number; readonly host: string }): boolean {
  if (h.host !== hostname() || !Number.isInteger(h.pid) || h.pid <= 0) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
