/**
 * A small YAML writer for the JSON documents the control API serves (the live document), each
 * line with the JSON pointer(s) of the field it shows, so the page can mark the fields a diff
 * names. Pure. Not a general YAML library: strings are quoted as JSON wherever YAML could read
 * them as something else.
 */

/** One line of YAML and the pointers of the value it shows (an array item: by index and name). */
export interface YamlLine {
  readonly text: string;
  readonly paths: readonly string[];
}

const PLAIN = /^[A-Za-z_./][\w ./@-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') {
    return PLAIN.test(v) && !RESERVED.test(v) && !v.endsWith(' ') ? v : JSON.stringify(v);
  }
  return String(v);
}

const key = (k: string) => (PLAIN.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k));
const seg = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const empty = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

/** `value` as YAML lines with their pointers (`/spec/variables/0/value`, `/spec/variables/gpus/value`). */
export function yamlLines(value: unknown): YamlLine[] {
  const out: YamlLine[] = [];
  const walk = (v: unknown, indent: string, paths: readonly string[], first?: string) => {
    // `first`: the text before the first line of an array item (`- `)
    let lead = first;
    const push = (text: string, at: readonly string[]) => {
      out.push({ text: lead !== undefined ? `${lead}${text}` : `${indent}${text}`, paths: at });
      lead = undefined;
    };
    if (isObject(v)) {
      for (const [k, child] of Object.entries(v)) {
        const at = paths.map((p) => `${p}/${seg(k)}`);
        if ((isObject(child) || Array.isArray(child)) && !empty(child)) {
          push(`${key(k)}:`, at);
          walk(child, `${indent}  `, at);
        } else push(`${key(k)}: ${empty(child) ? JSON.stringify(child) : scalar(child)}`, at);
      }
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        const name = isObject(item) && typeof item.name === 'string' ? item.name : undefined;
        const at = paths.flatMap((p) => [`${p}/${i}`, ...(name ? [`${p}/${seg(name)}`] : [])]);
        if ((isObject(item) || Array.isArray(item)) && !empty(item)) {
          walk(item, `${indent}  `, at, `${lead ?? indent}- `);
          lead = undefined;
        } else push(`- ${empty(item) ? JSON.stringify(item) : scalar(item)}`, at);
      });
      return;
    }
    push(scalar(v), paths);
  };
  walk(value, '', ['']);
  return out;
}

/** Whether a line showing `paths` is (inside) a field at one of `changed` pointers. */
export function marked(paths: readonly string[], changed: readonly string[]): boolean {
  return paths.some((p) => changed.some((c) => p === c || p.startsWith(`${c}/`)));
}
