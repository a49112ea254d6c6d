import { describe, expect, it } from 'vitest';
import { hasEmbeddedSecret, stripUserinfo } from '../../src/controller/sources/safe-url.js';

describe('stripUserinfo', () => {
  it('removes user and password or token from URLs', () => {
    expect(stripUserinfo('https://bob:ghp_secret123@github.com/acme/platform.git')).toBe(
      'https://github.com/acme/platform.git',
    );
    expect(stripUserinfo('https://ghp_secret123@github.com/acme/platform.git')).toBe(
      'https://github.com/acme/platform.git',
    );
    expect(stripUserinfo('ssh://git:pw@host:2222/r.git')).toBe('ssh://host:2222/r.git');
  });

  it('masks token query parameters', () => {
    expect(stripUserinfo('https://host/r.git?private_token=abc123&x=1')).toBe(
      'https://host/r.git?private_token=***&x=1',
    );
  });

  it('leaves scp-like SSH addresses and local paths alone', () => {
    expect(stripUserinfo('git@github.com:acme/platform.git')).toBe(
      'git@github.com:acme/platform.git',
    );
    expect(stripUserinfo('/tmp/repo.git')).toBe('/tmp/repo.git');
  });
});

describe('hasEmbeddedSecret', () => {
  it('flags credentials in the address', () => {
    expect(hasEmbeddedSecret('https://x:tok@host/r.git')).toBe(true);
    expect(hasEmbeddedSecret('https://tok@host/r.git')).toBe(true);
    expect(hasEmbeddedSecret('ssh://git@host/r.git')).toBe(false);
    expect(hasEmbeddedSecret('git@host:r.git')).toBe(false);
    expect(hasEmbeddedSecret('https://host/r.git')).toBe(false);
  });
});
