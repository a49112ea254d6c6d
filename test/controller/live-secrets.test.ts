import { describe, expect, it } from 'vitest';
import { liveSecrets } from '../../src/controller/secrets/live-secrets.js';

describe('liveSecrets', () => {
  it('asks on every use and remembers every value seen, so rotated ones are scrubbed too', async () => {
    let key = 'key-one';
    const asked: string[] = [];
    const s = await liveSecrets({
      apiKey: async () => {
        asked.push(key);
        return key;
      },
      webhookSecret: 'hook-literal',
      gitToken: 'git-env-token',
    });
    expect(s.controlToken).toBeUndefined();
    // read once at start: a file that cannot be read fails the start, not the first request
    expect(asked).toEqual(['key-one']);
    const known = s.known; // the same array throughout: a holder sees later values
    expect([...known].sort()).toEqual(['git-env-token', 'hook-literal', 'key-one']);
    key = 'key-two';
    expect(await s.apiKey()).toBe('key-two');
    expect(await s.webhookSecret?.()).toBe('hook-literal');
    expect(known).toContain('key-two');
    expect(known).toContain('key-one');
  });

  it('fails the start when a credential cannot be read', async () => {
    await expect(
      liveSecrets({
        apiKey: async () => {
          throw new Error('API key file /x is missing or unreadable');
        },
      }),
    ).rejects.toThrow('/x is missing or unreadable');
  });
});
