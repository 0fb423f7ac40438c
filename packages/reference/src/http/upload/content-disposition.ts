const encoder = new TextEncoder();
// RFC 7230 token characters (what a parameter name and the disposition type are made of).
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]$/;

// An RFC 5987 ext-value (`UTF-8''Gr%C3%BC%C3%9Fe.pdf`) decoded by its charset; undefined when malformed.
function decodeExtended(value: string): string | undefined {
  const match = /^([!#$%&+^_`{}~0-9A-Za-z-]+)'[^']*'(.+)$/.exec(value);
  if (!match) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < match[2]!.length; i++) {
    const c = match[2]![i]!;
    if (c === '%') {
      const hex = match[2]!.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...encoder.encode(c));
  }
  try {
    return new TextDecoder(match[1]!).decode(new Uint8Array(bytes));
  } catch {
    return undefined; // a charset nobody knows
  }
}

/**
 * A Content-Disposition (`form-data; name="files[]"; filename="a.pdf"`) as busboy parses it: a quoted value
 * unescapes `\"` and `\\` only, an extended value (`filename*=UTF-8''...`) is decoded by its charset, and
 * anything malformed makes the whole header unusable (undefined).
 * @example parseDisposition('form-data; name="files[]"; filename="a.pdf"') // { type: 'form-data', params: { name: 'files[]', filename: 'a.pdf' } }
 */
function parseDisposition(header: string): { type: string; params: Record<string, string> } | undefined {
  const type = /^[^;\s]+/.exec(header)?.[0] ?? '';
  if (![...type].every((c) => TOKEN.test(c))) return undefined;
  const params: Record<string, string> = {};
  let rest = header.slice(type.length);
  for (;;) {
    rest = rest.replace(/^[ \t]+/, '');
    if (rest === '') return { type: type.toLowerCase(), params };
    const name = /^;[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)=/.exec(rest);
    if (!name) return undefined;
    rest = rest.slice(name[0].length);
    let value = '';
    if (rest.startsWith('"')) {
      let i = 1;
      for (; i < rest.length && rest[i] !== '"'; i++) {
        if (rest[i] === '\\' && (rest[i + 1] === '"' || rest[i + 1] === '\\')) i++;
        value += rest[i];
      }
      if (i === rest.length) return undefined; // no closing quote
      rest = rest.slice(i + 1);
    } else {
      value = /^[^;\s]*/.exec(rest)![0];
      rest = rest.slice(value.length);
    }
    const key = name[1]!.toLowerCase();
    if (key.endsWith('*')) {
      const decoded = decodeExtended(value);
      if (decoded === undefined) return undefined;
      params[key] = decoded;
    } else params[key] = value;
  }
}

/**
 * What a multipart part's Content-Disposition names, as the server's parser reads it: its `name`, and
 * `filename*` (decoded) or else `filename`, kept whole (an empty one is none); undefined when the header is
 * malformed or not `form-data` (a part the parser skips). The one reading of it: the server's parts and the
 * proxy's tap.
 * @example formDataDisposition("form-data; name=\"files[]\"; filename*=UTF-8''%C3%A9.pdf") // { name: 'files[]', filename: 'é.pdf' }
 */
export function formDataDisposition(header: string): { name: string | undefined; filename: string | undefined } | undefined {
  const disposition = parseDisposition(header);
  if (disposition?.type !== 'form-data') return undefined;
  const { params } = disposition;
  return { name: params.name || undefined, filename: params['filename*'] || params.filename || undefined };
}
