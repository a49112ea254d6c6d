import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeliveryWindow, deliveryId } from '../../src/controller/sources/webhook-deliveries.js';
import {
  constantTimeEqual,
  verifyWebhook,
} from '../../src/controller/sources/webhook-signature.js';

const secret = 'whsec-test-1234567890';
const body = Buffer.from('{"ref":"refs/heads/main"}');
const sig = (s: string, b: Buffer) => createHmac('sha256', s).update(b).digest('hex');

describe('verifyWebhook', () => {
  it('accepts a GitHub X-Hub-Signature-256 computed with the shared secret', () => {
    const v = verifyWebhook({ 'x-hub-signature-256': `sha256=${sig(secret, body)}` }, body, secret);
    expect(v).toEqual({ ok: true, scheme: 'github' });
  });

  it('refuses a signature made with another secret, or over another body', () => {
    expect(
      verifyWebhook({ 'x-hub-signature-256': `sha256=${sig('other', body)}` }, body, secret),
    ).toEqual({ ok: false, reason: 'bad-signature' });
    const tampered = Buffer.from('{"ref":"refs/heads/evil"}');
    expect(
      verifyWebhook({ 'x-hub-signature-256': `sha256=${sig(secret, body)}` }, tampered, secret),
    ).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a GitHub signature without its sha256= prefix, or truncated', () => {
    const hex = sig(secret, body);
    expect(verifyWebhook({ 'x-hub-signature-256': hex }, body, secret).ok).toBe(false);
    expect(
      verifyWebhook({ 'x-hub-signature-256': `sha256=${hex.slice(0, 40)}` }, body, secret).ok,
    ).toBe(false);
  });

  it('accepts Gitea hex signatures and GitLab tokens', () => {
    expect(verifyWebhook({ 'x-gitea-signature': sig(secret, body) }, body, secret)).toEqual({
      ok: true,
      scheme: 'gitea',
    });
    expect(verifyWebhook({ 'x-gitlab-token': secret }, body, secret)).toEqual({
      ok: true,
      scheme: 'gitlab',
    });
    expect(verifyWebhook({ 'x-gitlab-token': `${secret}x` }, body, secret).ok).toBe(false);
  });

  it('says when no signature header was sent', () => {
    expect(verifyWebhook({}, body, secret)).toEqual({ ok: false, reason: 'missing-signature' });
  });
});

describe('constantTimeEqual', () => {
  it('compares strings of any lengths without throwing', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'x')).toBe(false);
  });
});

describe('the delivery window', () => {
  it('takes each id once, forgets it after the window, and never holds more than its capacity', () => {
    let now = 0;
    const w = new DeliveryWindow({ capacity: 3, windowMs: 1000, now: () => now });
    expect(w.first('a')).toBe(true);
    expect(w.first('a')).toBe(false);
    now = 999;
    expect(w.first('a')).toBe(false);
    now = 1000;
    expect(w.first('a')).toBe(true); // out of the window: a new delivery
    for (const id of ['b', 'c', 'd']) expect(w.first(id)).toBe(true);
    expect(w.first('a')).toBe(true); // pushed out by the capacity
    expect(deliveryId({ 'x-github-delivery': ' 72d3 ' })).toBe('x-github-delivery:72d3');
    expect(deliveryId({ 'x-gitlab-event-uuid': 'u-1' })).toBe('x-gitlab-event-uuid:u-1');
    expect(deliveryId({})).toBeUndefined();
  });
});
