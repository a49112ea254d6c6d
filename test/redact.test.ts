import { describe, expect, it } from 'vitest';
import { redact, scrub } from '../src/core/errors.js';

describe('redact', () => {
  it('masks key=value and JSON forms of secrets', () => {
    expect(redact('x-api-key: abcdef123456')).toBe('x-api-key: ***');
    expect(redact('{"password":"hunter2hunter2"}')).toBe('{"password":"***"}');
    expect(redact('token=ghp_abc123&x=1')).toBe('token=***&x=1');
  });

  it('masks credentials inside URLs', () => {
    expect(redact('cloning https://bot:s3cr3t@git.example.com/repo.git')).toBe(
      'cloning https://bot:***@git.example.com/repo.git',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(redact('409 creating workspace ml/dev: already exists')).toBe(
      '409 creating workspace ml/dev: already exists',
    );
  });

  it('scrubs known literal secrets', () => {
    expect(scrub('key is k-123456 here', ['k-123456'])).toBe('key is *** here');
  });
});
