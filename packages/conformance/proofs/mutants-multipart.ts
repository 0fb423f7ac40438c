// Test-only: servers whose multipart parser reads the wire forms of an upload wrongly (src/inputs/multipart-forms.ts),
// one defect per reading, and one whose parser-limit refusal names nothing; each touches only its own uploads,
// so they run as one group.

import { editJson, type ProxyRequest, splitMultipart } from '@docproc-kit/test-support/mutation-proxy.js';
import { invalidRequest, isUpload, problem } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';

const contentType = (r: ProxyRequest) => r.headers['content-type'] ?? '';
const isMultipart = (r: ProxyRequest) => isUpload(r) && /^multipart\/form-data\b/i.test(contentType(r));

/** The boundary the request's Content-Type names, quoted or not. */
function boundaryOf(r: ProxyRequest): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType(r));
  return match?.[1] ?? match?.[2];
}

/**
 * The filenames of a body's parts as a greedy `filename="(.*)"` reads them, where that differs from the
 * quoted-string: everything up to the line's last quote, so a parameter after the filename joins it.
 */
function greedyFilenames(r: ProxyRequest): Array<string | undefined> {
  const lines = r.body.toString('latin1').match(/^content-disposition:[^\r\n]*/gim) ?? [];
  return lines.map((line) => {
    const greedy = /filename="(.*)"/.exec(line)?.[1];
    const quoted = /filename="([^"]*)"/.exec(line)?.[1];
    return greedy !== undefined && greedy !== quoted ? Buffer.from(greedy, 'latin1').toString('utf8') : undefined;
  });
}

/** Whether an upload holds a text part (no filename) over 1 KiB, past multer's and busboy's usual field-size limits. */
function longTextPart(r: ProxyRequest): boolean {
  const split = isUpload(r) ? splitMultipart(r.body, contentType(r)) : undefined;
  return split?.parts.some((p) => !/filename\*?=/i.test(p.head) && p.data.length > 1024) ?? false;
}

const wire = (name: string, defect: string, fails: string | string[], rules: string[], mutation: Mutant['mutation']): Mutant => ({
  name,
  defect,
  only: ['upload'],
  fails: typeof fails === 'string' ? [fails] : fails,
  rules,
  group: 'multipart-wire',
  mutation,
});

/** One defect per reading of the wire forms. */
export const multipartMutants: Mutant[] = [
  wire(
    'preamble-refused',
    'a body with a preamble before its first boundary is refused as malformed (a parser that wants the boundary at the first byte; RFC 2046 says to ignore it)',
    'upload.multipart-forms-accepted',
    ['upload.multipart-files', 'upload.accepted-202'],
    () => ({
      respond: (req, upstream) =>
        isMultipart(req) && req.body.length > 0 && req.body.subarray(0, 2).toString('latin1') !== '--'
          ? Promise.resolve(invalidRequest(req, 'body', 'body'))
          : upstream(req),
    }),
  ),
  wire(
    'missing-boundary-is-415',
    'a body in which the boundary never appears is a 415 unsupported_media_type (read as "not multipart") instead of a 400',
    'upload.multipart-malformed-refused',
    ['errors.upload-400-causes'],
    () => ({
      respond: (req, upstream) => {
        const boundary = isMultipart(req) ? boundaryOf(req) : undefined;
        return boundary !== undefined && !req.body.includes(`--${boundary}`)
          ? Promise.resolve(problem(req, 415, 'unsupported_media_type'))
          : upstream(req);
      },
    }),
  ),
  wire(
    'greedy-filename',
    'a Content-Disposition is read with a greedy `filename="(.*)"`, so a parameter after the filename ends up in the stored name',
    'upload.multipart-lenient-forms',
    ['upload.filename-verbatim'],
    () => ({
      response: (res, req) => {
        const names = isUpload(req) && res.status === 202 ? greedyFilenames(req) : [];
        return names.every((n) => n === undefined)
          ? res
          : editJson(res, (b) => {
              b.documents.forEach((d: { filename: string }, i: number) => {
                if (names[i] !== undefined) d.filename = names[i];
              });
            });
      },
    }),
  ),
  {
    ...wire(
      'parser-limit-names-nothing',
      "a text field over the parser's field-size limit is refused with an empty `errors` entry (the limit error carried no field)",
      // The body fails its schema first, which ends the scenario before `errors` is read for the field's name.
      'response.body-matches-schema',
      ['schema:FieldError.required'],
      () => ({
        response: (res, req) =>
          res.status === 400 && longTextPart(req)
            ? editJson(res, (b) => {
                b.errors = [{}];
              })
            : res,
      }),
    ),
    mentions: "must have required property 'in'",
  },
];
