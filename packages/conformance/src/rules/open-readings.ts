/**
 * The details the contract leaves open: where it decides nothing in words, a correct service may answer
 * either way, so the checks accept every reading listed here. Each entry says what the contract leaves open,
 * the readings accepted, and where the checks accept them; a reading that is neither fails as usual.
 * The contract may close one on purpose (then the entry goes, and a rule in rules/prose.ts quotes it).
 */
export interface OpenReading {
  id: string;
  /** What is left open, and by which words of the contract (or their absence). */
  detail: string;
  /** The readings a correct service may make, each accepted. */
  readings: readonly string[];
  /** Where the checks accept them. */
  acceptedBy: string;
}

/**
 * Spellings of an integer in a path or query that the contract lets a service read either way ("A leading
 * zero (`010`) or a `+` (`+10`) may be read either way"): as the number, or as a `400`.
 */
export const OPEN_INTEGER_SPELLINGS: ReadonlySet<string> = new Set(['a leading zero', 'a plus sign']);

export const openReadings: readonly OpenReading[] = [
  {
    id: 'integer.leading-zero-or-plus',
    detail: 'An integer spelled with a leading zero (`010`) or a `+` (`+10`): the contract says it may be read either way.',
    readings: ['the number it spells, answered as the plain spelling would be', 'a 400 naming the parameter'],
    acceptedBy: 'checks/boundary-integers.ts (cases that expect `either`), judged in checks/boundary.ts',
  },
  {
    id: 'header.name-case',
    detail: 'HTTP header names are case-insensitive (RFC 9110); the contract names `x-api-key`, `X-Request-Id`, `Allow` in one case each.',
    readings: ['any letter case of a header name, in requests and answers', 'an `errors` entry naming a header in any case'],
    acceptedBy: 'judging/expect.ts expectNamesParameter; answers are read through Headers',
  },
  {
    id: 'media-type.parameters',
    detail: 'The contract gives media types without parameters; `application/json; charset=utf-8` is the same type.',
    readings: ['a media type with or without parameters (charset, ...)', 'any letter case of the type'],
    acceptedBy: 'transport/http.ts (the media type is compared without its parameters, lower-cased)',
  },
  {
    id: 'json.layout',
    detail: 'JSON objects are unordered and whitespace between tokens is insignificant (RFC 8259).',
    readings: ['any key order', 'any whitespace between tokens'],
    acceptedBy: 'every body is parsed before it is judged (proofs/benign-variants.ts reverses keys)',
  },
  {
    id: 'timestamp.offset-and-precision',
    detail: '`format: date-time` is RFC 3339, which allows any offset and any fraction of a second.',
    readings: ['`Z` or an offset such as `+02:00`', 'no fraction, milliseconds or microseconds'],
    acceptedBy: 'instants are compared as instants (proofs/benign-variants.ts offsets and trims them)',
  },
  {
    id: 'errors.order',
    detail: 'The contract says `errors` lists what was wrong, not in which order.',
    readings: ['the offending entries in any order, alongside others'],
    acceptedBy: 'judging/expect.ts expectNamesParameter looks for the entry among all of them',
  },
  {
    id: 'upload.body-less-naming',
    detail: 'An upload with no body or no multipart Content-Type "may be named either way".',
    readings: ['`{in: body, name: files[]}`', '`{in: header, name: Content-Type}`'],
    acceptedBy: 'scenarios/upload.suite.ts passes both to expectNamesParameter',
  },
  {
    id: 'multipart.parser-readings',
    detail:
      "A multipart body the standards leave to the parser: transport padding after a boundary (RFC 2046 asks receivers to handle what mail transports add, no HTTP client writes it, busboy refuses it), a parameter without a name, a `;` with nothing after it, bare LF line endings, `name=files[]` unquoted. The contract calls a malformed body a 400 without saying which of these are; busboy, Go's mime/multipart and the reference core each read some of them.",
    readings: ['a 400 `invalid_request` that stores nothing', 'a 202 storing the file with the name and bytes sent'],
    acceptedBy: 'checks/upload.ts upload.multipart-lenient-forms, sent by scenarios/upload-wire.suite.ts (inputs/multipart-forms.ts)',
  },
  {
    id: 'extra-properties',
    detail: 'The schemas do not forbid properties they do not declare (no `additionalProperties: false`), except `content` in a list item.',
    readings: ['a body with properties the schema does not declare'],
    acceptedBy: 'response.no-undocumented-properties only warns (a failure with --strict)',
  },
  {
    id: 'methods.head-options',
    detail: 'The contract documents no HEAD or OPTIONS; HTTP (RFC 9110) lets a GET path answer HEAD, and CORS answers OPTIONS.',
    readings: ['HEAD and OPTIONS answered, or a 405', '`Allow` naming HEAD or OPTIONS besides the documented method'],
    acceptedBy: 'the suite sends neither; robustness.wrong-method accepts extra methods in Allow, but not the one refused',
  },
  {
    id: 'path.trailing-slash',
    detail: 'The contract gives each path without a trailing slash and says nothing of `/path/`.',
    readings: ['`/path/` as `/path`, a redirect, or a 404'],
    acceptedBy: 'the suite never sends a trailing slash',
  },
  {
    id: 'problem.title',
    detail:
      '`title` is "the HTTP reason phrase", and stacks name some statuses differently (413 is `Content Too Large` in RFC 9110, `Payload Too Large` in RFC 7231 and Node, `Request Entity Too Large` in RFC 2616) and write them in any case.',
    readings: ["any RFC's name for the status, in any case, with or without its hyphens"],
    acceptedBy: 'response.problem-title-and-detail (checks/reason-phrases.ts lists the names)',
  },
  {
    id: 'problem.instance',
    detail:
      '`instance` is "the request path, for reference": encoded or decoded, and as the service saw it (a gateway in front may rewrite paths).',
    readings: ['any path, or none'],
    acceptedBy: 'no check judges `instance` (rules/sentences-baseline.txt says why)',
  },
  {
    id: 'ocr.fidelity',
    detail:
      'The contract says scans and images are read "with OCR", not how well: which words an engine reads, their case, spacing and line breaks, and a misread word are the engine\'s.',
    readings: ['any text holding a few of the printed words, in any case and layout', 'a misread word besides them'],
    acceptedBy: 'checks/document.ts lifecycle.scan-read-by-ocr (at least 2 of the words, case-folded)',
  },
  {
    id: 'ocr.cannot-read',
    detail:
      'A deployment that cannot read a legible scan (no OCR engine) and fails it says so under "A file that cannot be read fails with `error.code` `unreadable_document`"; only `""` claims the scan holds no text.',
    readings: ['`completed` with the words', '`failed`: the OCR is then not judged (not exercised)'],
    acceptedBy: 'scenarios/lifecycle.suite.ts (the legible-scan scenario)',
  },
  {
    id: 'intermediary.own-answers',
    detail:
      "The contract describes the service, not a proxy or gateway in front of it: an answer a known intermediary made itself (no X-Request-Id echoed, its own Server/Via) is not the service's.",
    readings: ["the service's answer, judged", "an intermediary's own answer, reported as a warning naming it"],
    acceptedBy: 'transport/intermediary.ts, from transport/http.ts judgeResponse',
  },
];
