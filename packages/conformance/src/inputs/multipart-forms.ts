// The ways of writing an upload's multipart body on the wire: what RFC 7578 (multipart/form-data), RFC 2046
// §5.1.1 (multipart syntax), RFC 9110 (parameters, field names) and RFC 6266 (Content-Disposition) allow a
// client to write, what they forbid, and what real parsers read either way. A browser writes one of these
// forms only; .NET quotes its boundary, MIME libraries write a preamble, hand-written clients do the rest.

/** What a correct service answers to a form: `accepted` a 202 storing the file; `refused` a 400; `either` one of those. */
export type FormReading = 'accepted' | 'refused' | 'either';

/** The file one form carries. */
export interface FormFile {
  field: string;
  /** A name of token characters only (letters, digits, `-`, `.`), so every form can carry it as it is. */
  filename: string;
  data: Uint8Array;
}

/** One way of writing the upload. */
export interface MultipartForm {
  /** Its partition in the upload's catalogue (`wire: ...`). */
  id: string;
  /** The words that decide its reading: the standard's section, or the readings real parsers make. */
  standard: string;
  reading: FormReading;
  /** The body and Content-Type of an upload of `file` in this form, and the name it is stored under when not `file.filename`. */
  write(file: FormFile): { body: Uint8Array; contentType: string; filename?: string };
  /** Whether a sent body is of this form: its Content-Type and its bytes read as Latin-1. */
  holds(sent: SentWire): boolean;
}

/** A multipart body as sent, for classifying it. */
export interface SentWire {
  contentType: string;
  /** The body's bytes as Latin-1 text. */
  text: string;
  /** The boundary its Content-Type names (quotes removed), if any. */
  boundary: string | undefined;
  /** The Content-Disposition lines of its parts, as written. */
  dispositions: string[];
}

const encoder = new TextEncoder();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A parameter name with a capital letter in it (`BOUNDARY=`, `Name=`).
const UPPER_PARAMETER = /;\s*[A-Za-z*]*[A-Z][A-Za-z*]*\s*=/;
const random = () => Math.random().toString(36).slice(2, 10);

interface Layout {
  boundary?: string;
  /** The Content-Type written, given the boundary. */
  contentType?: (boundary: string) => string;
  preamble?: string;
  epilogue?: string;
  /** The Content-Disposition line, given the file. */
  disposition?: (file: FormFile) => string;
  /** The part's Content-Type line. */
  partType?: string;
  eol?: string;
}

function write(file: FormFile, layout: Layout = {}): { body: Uint8Array; contentType: string } {
  const boundary = layout.boundary ?? `docproc-conformance-${random()}`;
  const eol = layout.eol ?? '\r\n';
  const disposition = layout.disposition?.(file) ?? `Content-Disposition: form-data; name="${file.field}"; filename="${file.filename}"`;
  const head = `${layout.preamble ?? ''}--${boundary}${eol}${disposition}${eol}${layout.partType ?? 'Content-Type: application/pdf'}${eol}${eol}`;
  const tail = `${eol}--${boundary}--${eol}${layout.epilogue ?? ''}`;
  const [a, b] = [encoder.encode(head), encoder.encode(tail)];
  const body = new Uint8Array(a.length + file.data.length + b.length);
  body.set(a);
  body.set(file.data, a.length);
  body.set(b, a.length + file.data.length);
  return { body, contentType: layout.contentType?.(boundary) ?? `multipart/form-data; boundary=${boundary}` };
}

/** The boundary a Content-Type names, quoted or not. */
export function boundaryParameter(contentType: string): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The parts of a body as the classifier reads it. */
export function sentWire(contentType: string, data: Uint8Array): SentWire {
  const text = Buffer.from(data).toString('latin1');
  return {
    contentType,
    text,
    boundary: boundaryParameter(contentType),
    dispositions: [...text.matchAll(/^content-disposition:[^\r\n]*/gim)].map((m) => m[0]),
  };
}

const value = (d: string) => d.replace(/^content-disposition:\s*/i, '');

/** Every form, the well-formed ones first. */
export const MULTIPART_FORMS: readonly MultipartForm[] = [
  {
    id: 'wire: boundary quoted, holding a space',
    standard:
      'RFC 7578 §4.1 ("it is often necessary to enclose the boundary parameter values in quotes"), RFC 2046 §5.1.1 bchars; .NET quotes every boundary',
    reading: 'accepted',
    write: (file) =>
      write(file, { boundary: `docproc conformance()+_,-./:=?${random()}`, contentType: (b) => `multipart/form-data; boundary="${b}"` }),
    holds: (s) => /;\s*boundary\s*=\s*"/i.test(s.contentType),
  },
  {
    id: 'wire: a preamble and an epilogue',
    standard:
      'RFC 2046 §5.1.1: "implementations must ignore anything that appears before the first boundary delimiter line or after the last one"',
    reading: 'accepted',
    write: (file) =>
      write(file, { preamble: 'This is a multi-part message in MIME format.\r\n', epilogue: 'This is the epilogue; it is ignored.\r\n' }),
    holds: ({ boundary, text }) => {
      if (boundary === undefined) return false;
      const close = text.lastIndexOf(`\r\n--${boundary}--`);
      const preamble = !text.startsWith(`--${boundary}`) && text.includes(`\r\n--${boundary}`);
      return preamble || (close !== -1 && !/^(\r\n)?$/.test(text.slice(close + boundary.length + 6)));
    },
  },
  {
    id: 'wire: spaces and tabs around ";" in Content-Disposition',
    standard: 'RFC 9110 §5.6.6 (parameters = *( OWS ";" OWS [ parameter ] )), RFC 6266 §4.1',
    reading: 'accepted',
    write: (file) =>
      write(file, { disposition: (f) => `Content-Disposition: form-data  ;\tname="${f.field}" \t;  filename="${f.filename}"` }),
    holds: (s) => s.dispositions.some((d) => /[ \t];|;[ \t]{2}|;\t/.test(value(d))),
  },
  {
    id: 'wire: another parameter before the boundary',
    standard:
      'RFC 9110 §8.3.1 (media-type = type "/" subtype parameters: any parameters, in any order); Spring\'s multipart writer sends `multipart/form-data;charset=UTF-8;boundary=...`',
    reading: 'accepted',
    write: (file) => write(file, { contentType: (b) => `multipart/form-data;charset=UTF-8;boundary=${b}` }),
    holds: (s) => /;\s*charset\s*=[^;]*;\s*boundary\s*=/i.test(s.contentType),
  },
  {
    id: 'wire: names in other letter case',
    standard:
      'RFC 6266 §4.1 (disposition type and parameter names are case-insensitive), RFC 9110 §5.1 (field names), §8.3.1 (media type and parameter names)',
    reading: 'accepted',
    write: (file) =>
      write(file, {
        contentType: (b) => `Multipart/Form-Data; BOUNDARY=${b}`,
        disposition: (f) => `content-disposition: Form-Data; Name="${f.field}"; FILENAME="${f.filename}"`,
        partType: 'CONTENT-TYPE: application/pdf',
      }),
    holds: (s) =>
      !/^multipart\/form-data(;|$)/.test(s.contentType) ||
      UPPER_PARAMETER.test(s.contentType) ||
      s.dispositions.some((d) => !d.startsWith('Content-Disposition: form-data') || UPPER_PARAMETER.test(d)),
  },
  {
    id: 'wire: a filename as a token, unquoted',
    standard: 'RFC 6266 §4.1 (value = token | quoted-string), RFC 9110 §5.6.6',
    reading: 'accepted',
    write: (file) => write(file, { disposition: (f) => `Content-Disposition: form-data; name="${f.field}"; filename=${f.filename}` }),
    holds: (s) => s.dispositions.some((d) => /;\s*filename\s*=\s*[^\s"]/i.test(d)),
  },
  {
    id: 'wire: filename* in ISO-8859-1, with a language tag',
    standard:
      'RFC 5987 §3.2.1, which the contract names for filename*: charset "ISO-8859-1" / "UTF-8" (recipients "MUST support" both), then an optional language',
    reading: 'accepted',
    write: (file) => {
      const filename = file.filename.replace(/\.pdf$/, '-Grüße.pdf');
      const latin1 = [...filename].map((c) => (c.charCodeAt(0) < 0x80 ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('');
      return {
        ...write(file, { disposition: (f) => `Content-Disposition: form-data; name="${f.field}"; filename*=ISO-8859-1'de'${latin1}` }),
        filename,
      };
    },
    holds: (s) => s.dispositions.some((d) => /filename\*\s*=\s*iso-8859-1'/i.test(d)),
  },
  {
    id: 'wire: filename* with its charset and hex digits in lower case',
    standard: 'RFC 5987 §3.2.1 (the charset is case-insensitive) and RFC 3986 §2.1 (percent-encoding hex digits in either case)',
    reading: 'accepted',
    write: (file) => {
      const filename = file.filename.replace(/\.pdf$/, '-é.pdf');
      const star = `${file.filename.replace(/\.pdf$/, '')}-%c3%a9.pdf`;
      return {
        ...write(file, { disposition: (f) => `Content-Disposition: form-data; name="${f.field}"; filename*=utf-8''${star}` }),
        filename,
      };
    },
    holds: (s) => s.dispositions.some((d) => /filename\*\s*=\s*utf-8'/.test(d)),
  },
  {
    id: 'wire: a boundary of 70 characters',
    standard: 'RFC 2046 §5.1.1 (boundary := 0*69<bchars> bcharsnospace: at most 70 characters)',
    reading: 'accepted',
    write: (file) => write(file, { boundary: `docproc-conformance-${random()}`.padEnd(70, 'x') }),
    holds: (s) => s.boundary?.length === 70,
  },
  {
    id: 'wire: a boundary the body never holds',
    standard: 'RFC 2046 §5.1.1 (a multipart body is its delimited parts); the contract: a malformed body is a 400',
    reading: 'refused',
    write: (file) => {
      const written = write(file);
      return { body: written.body, contentType: `${written.contentType}-not-in-the-body` };
    },
    holds: (s) => s.boundary !== undefined && !s.text.includes(`--${s.boundary}`),
  },
  {
    id: 'wire: no closing delimiter',
    standard: 'RFC 2046 §5.1.1 (multipart-body ends with close-delimiter); the contract: a malformed body is a 400',
    reading: 'refused',
    write: (file) => {
      const { body, contentType } = write(file);
      return { body: body.subarray(0, body.length - `--${boundaryParameter(contentType)}--\r\n`.length), contentType };
    },
    holds: ({ boundary, text }) => boundary !== undefined && text.includes(`--${boundary}`) && !text.includes(`--${boundary}--`),
  },
  {
    id: 'wire: transport padding after a boundary',
    standard:
      'RFC 2046 §5.1.1: composers "MUST NOT generate" it, receivers "MUST be able to handle" what mail transports add; no HTTP client writes it, and busboy (multer) skips the part, the reference core reads it',
    reading: 'either',
    write: (file) => {
      const { body, contentType } = write(file);
      const boundary = boundaryParameter(contentType)!;
      const text = Buffer.from(body).toString('latin1').replace(`--${boundary}\r\n`, `--${boundary} \t \r\n`);
      return { body: new Uint8Array(Buffer.from(text, 'latin1')), contentType };
    },
    holds: ({ boundary, text }) => boundary !== undefined && new RegExp(`--${escapeRegExp(boundary)}[ \\t]+\\r\\n`).test(text),
  },
  {
    id: 'wire: a parameter without a name',
    standard: 'outside RFC 6266’s grammar: busboy reads it as a parameter named "" and keeps the part, the reference core skips the part',
    reading: 'either',
    write: (file) =>
      write(file, { disposition: (f) => `Content-Disposition: form-data; name="${f.field}"; filename="${f.filename}"; ="x"` }),
    holds: (s) => s.dispositions.some((d) => /;[ \t]*=/.test(d)),
  },
  {
    id: 'wire: a ";" with no parameter after it',
    standard: 'RFC 9110 §5.6.6 allows an empty parameter, RFC 6266 does not: busboy and the reference core skip the part, Go keeps it',
    reading: 'either',
    write: (file) => write(file, { disposition: (f) => `Content-Disposition: form-data; name="${f.field}"; filename="${f.filename}";` }),
    holds: (s) => s.dispositions.some((d) => /;[ \t]*$/.test(d)),
  },
  {
    id: 'wire: bare LF line endings',
    standard: 'RFC 2046 §5.1.1 asks for CRLF: busboy and the reference core refuse a bare LF, Go’s mime/multipart reads it',
    reading: 'either',
    write: (file) => write(file, { eol: '\n' }),
    holds: (s) => s.boundary !== undefined && new RegExp(`(^|[^\\r]\\n)--${escapeRegExp(s.boundary)}(--)?\\n`).test(s.text),
  },
  {
    id: 'wire: a value that needs quotes sent bare (name=files[])',
    standard:
      '`[` and `]` are no token characters (RFC 9110 §5.6.2): busboy skips the part, the reference core and formidable read the name',
    reading: 'either',
    write: (file) => write(file, { disposition: (f) => `Content-Disposition: form-data; name=${f.field}; filename="${f.filename}"` }),
    holds: (s) => s.dispositions.some((d) => /;\s*name\s*=\s*[^\s";]*[[\]]/i.test(d)),
  },
];
