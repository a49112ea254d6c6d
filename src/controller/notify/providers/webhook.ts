import { createHmac } from 'node:crypto';
import { type OutgoingRequest, type Render, USER_AGENT } from './types.js';

/** The header carrying the body's HMAC when the provider has a secret. */
const SIGNATURE_HEADER = 'x-platctl-signature';

/**
 * The generic JSON webhook: the alert itself as the body (docs/operations.md lists its fields),
 * `X-Platctl-Event: <kind>`, and with a `secretFile` an `X-Platctl-Signature: sha256=<hex>`
 * HMAC-SHA256 of the exact body, so the receiver can check who sent it. Pure.
 */
export const renderWebhook: Render = (alert, target): OutgoingRequest => {
  const body = JSON.stringify(alert);
  return {
    url: target.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-platctl-event': alert.kind,
      ...(target.secret !== undefined
        ? { [SIGNATURE_HEADER]: `sha256=${sign(body, target.secret)}` }
        : {}),
    },
    body,
  };
};

/** HMAC-SHA256 of `body` under `secret`, hex. Pure. */
export function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
