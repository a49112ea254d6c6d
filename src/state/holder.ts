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
