import { describe, expect, it } from 'vitest';
import {
  SecretFile,
  type SecretFileEvent,
  type SecretFileSystem,
} from '../../src/controller/secrets/secret-file.js';

/** An in-memory file system: content and inode per path; writes bump mtime, swaps the inode. */
class FakeFs implements SecretFileSystem {
  files = new Map<string, { text: string; ino: number; mtimeMs: number }>();
  reads = 0;
  #ino = 1;
  write(path: string, text: string, swap = false): void {
    const old = this.files.get(path);
    this.files.set(path, {
      text,
      ino: swap || !old ? ++this.#ino : old.ino,
      mtimeMs: (old?.mtimeMs ?? 0) + 1,
    });
  }
  async stat(path: string) {
    const f = this.files.get(path);
    if (!f) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    return { ino: f.ino, size: f.text.length, mtimeMs: f.mtimeMs, ctimeMs: f.mtimeMs };
  }
  async readFile(path: string) {
    this.reads++;
    const f = this.files.get(path);
    if (!f) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    return f.text;
  }
}

function secretFile() {
  const fs = new FakeFs();
  const events: SecretFileEvent[] = [];
  const file = new SecretFile('/etc/platctl/secrets/api-key', 'API key', {
    fs,
    onEvent: (e) => events.push(e),
  });
  return { fs, file, events };
}

describe('SecretFile (stat on use)', () => {
  it('reads once, then re-reads only when the file changed: an in-place write or a symlink swap', async () => {
    const { fs, file, events } = secretFile();
    fs.write('/etc/platctl/secrets/api-key', 'key-one\n');
    expect(await file.load()).toBe('key-one');
    expect(await file.value()).toBe('key-one');
    expect(await file.value()).toBe('key-one');
    expect(fs.reads).toBe(1); // unchanged: a stat per use, no read
    fs.write('/etc/platctl/secrets/api-key', 'key-two');
    expect(await file.value()).toBe('key-two');
    fs.write('/etc/platctl/secrets/api-key', 'key-3', true); // Kubernetes: ..data swapped
    expect(await file.value()).toBe('key-3');
    expect(events).toEqual([
      { type: 'reloaded', what: 'API key' },
      { type: 'reloaded', what: 'API key' },
    ]);
    expect(JSON.stringify(events)).not.toContain('key-');
  });

  it('keeps the last good value while the file is empty or gone, reporting it once', async () => {
    const { fs, file, events } = secretFile();
    fs.write('/etc/platctl/secrets/api-key', 'key-one');
    await file.load();
    fs.write('/etc/platctl/secrets/api-key', ''); // a writer truncated it, not done yet
    expect(await file.value()).toBe('key-one');
    expect(await file.value()).toBe('key-one');
    fs.files.delete('/etc/platctl/secrets/api-key');
    expect(await file.value()).toBe('key-one');
    fs.write('/etc/platctl/secrets/api-key', 'key-two');
    expect(await file.value()).toBe('key-two');
    expect(events).toEqual([
      { type: 'unusable', what: 'API key', reason: 'is empty' },
      { type: 'unusable', what: 'API key', reason: 'is missing or unreadable' },
      { type: 'reloaded', what: 'API key' },
    ]);
  });

  it('refuses to start without a usable file, naming the file and not any content', async () => {
    const { fs, file } = secretFile();
    await expect(file.load()).rejects.toThrow(
      'API key file /etc/platctl/secrets/api-key is missing or unreadable',
    );
    fs.write('/etc/platctl/secrets/api-key', '  \n');
    await expect(file.load()).rejects.toThrow('API key file /etc/platctl/secrets/api-key is empty');
  });
});
