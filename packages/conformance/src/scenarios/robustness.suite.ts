import { checks } from '../checks/index.js';
import type { Exchange } from '../definitions/exchange.js';
import { expectNothingCreated } from '../harness/absence.js';
import { describe, openSuite } from '../harness/suite.js';
import { textPdf } from '../inputs/sample-files.js';
import { UNDECODABLE_DOCUMENT_ID } from '../rules/contract-facts.js';
import { buildMultipart } from '../transport/multipart.js';

const kit = await openSuite('robustness');
const { expectProblem } = kit;
const { robustness } = checks;
const t = kit.token('hostile');
const pdf = textPdf(['docproc conformance', 'robustness check']);
const encoder = new TextEncoder();
const ID = String(Number.MAX_SAFE_INTEGER);

describe('unknown paths and methods', () => {
  for (const path of kit.facts.unknownPaths) {
    kit.scenario(`${path} is a 404 not_found problem`, { profile: 'full', checks: [robustness.unknownPath] }, async () => {
      expectProblem(robustness.unknownPath, await kit.http.send({ path, method: 'GET' }), 404, 'not_found', 'no such path under the API');
    });
  }

  const paths = [...new Set(kit.contract.operations.map((o) => o.path))];
  for (const template of paths) {
    const documented = kit.contract.methodsFor(template.replace(/\{\w+\}/g, ID)).map((m) => m.toUpperCase());
    const others = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !documented.includes(m));
    kit.scenario(
      `${others.join(', ')} on ${template} are a 405 naming ${documented.join(', ')} in Allow`,
      { profile: 'full', checks: [robustness.wrongMethod] },
      async () => {
        for (const method of others) {
          const exchange = await kit.http.send({ path: template.replace(/\{\w+\}/g, ID), method });
          expectProblem(robustness.wrongMethod, exchange, 405, 'method_not_allowed', `${template} supports only ${documented.join(', ')}`);
          kit.check(robustness.wrongMethod, { kind: 'allow', allow: exchange.headers.get('allow'), documented, method }, exchange);
        }
      },
    );
  }
});

describe('malformed requests', () => {
  const field = kit.facts.fileField;
  const good = buildMultipart([{ field, filename: `${t}-truncated.pdf`, contentType: 'application/pdf', data: pdf }]);
  const noDisposition = encoder.encode(`--x\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--x--\r\n`);
  // A `files[]` part without a filename is a text field to every multipart parser (busboy, Starlette, Spring,
  // Go's mime/multipart): alone in the body, it leaves no file, whatever its bytes.
  const textUnderFilesField = encoder.encode(
    `--x\r\nContent-Disposition: form-data; name="${field}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 ${t}-text-part\r\n--x--\r\n`,
  );
  const hostile: Array<{ label: string; send: () => Promise<Exchange> }> = [
    {
      label: 'a multipart body cut off mid-file',
      send: () => kit.api.uploadRaw(good.body.slice(0, good.body.length - 200), good.contentType),
    },
    {
      label: 'a multipart body without its closing boundary',
      send: () => kit.api.uploadRaw(good.body.slice(0, good.body.length - `--${good.boundary}--\r\n`.length), good.contentType),
    },
    { label: 'a multipart content type without a boundary', send: () => kit.api.uploadRaw(good.body, 'multipart/form-data') },
    {
      label: 'a multipart part without Content-Disposition',
      send: () => kit.api.uploadRaw(noDisposition, 'multipart/form-data; boundary=x'),
    },
    {
      label: `a ${field} part without a filename (a text field), alone`,
      send: () => kit.api.uploadRaw(textUnderFilesField, 'multipart/form-data; boundary=x'),
    },
    {
      label: 'a JSON upload body',
      send: () => kit.api.uploadRaw(encoder.encode(JSON.stringify({ [field]: [`${t}-json.pdf`] })), 'application/json'),
    },
    {
      // What a service reading the media type with `includes('multipart/form-data')` takes for an upload.
      label: 'a multipart body under a text media type naming multipart/form-data only in a parameter',
      send: () => kit.api.uploadRaw(good.body, `text/plain; boundary=${good.boundary}; note="multipart/form-data"`),
    },
    {
      label: 'a url-encoded upload body',
      send: () => kit.api.uploadRaw(encoder.encode(`${encodeURIComponent(field)}=${t}-form.pdf`), 'application/x-www-form-urlencoded'),
    },
    {
      label: 'a path id with an encoded traversal',
      send: () =>
        kit.http.send({
          operation: 'getDocument',
          path: kit.contract.operation('getDocument')!.path.replace('{document_id}', '..%2F..%2Fetc%2Fpasswd'),
        }),
    },
    { label: 'a path id with an encoded NUL', send: () => kit.api.get('1\u0000') },
    {
      // Sent as it is, not encoded again. A router that cannot decode the segment and lets the error reach its
      // last-resort handler answers a 500; a gateway (nginx) refuses it itself, as it does the NUL.
      label: `a path id that is not valid percent-encoding (${UNDECODABLE_DOCUMENT_ID}, sent as it is)`,
      send: () =>
        kit.http.send({
          operation: 'getDocument',
          path: kit.contract.operation('getDocument')!.path.replace('{document_id}', UNDECODABLE_DOCUMENT_ID),
        }),
    },
    { label: 'a path id of 5000 digits', send: () => kit.api.retry('9'.repeat(5000)) },
    {
      label: 'a page given twice, once as a number and once as text',
      send: () => kit.api.list(undefined, { rawQuery: 'page=1&page=abc' }),
    },
  ];
  for (const { label, send } of hostile) {
    kit.scenario(`${label} is a 4xx problem`, { profile: 'full', checks: [robustness.hostileRejected] }, async () => {
      const exchange = await send();
      kit.check(
        robustness.hostileRejected,
        { kind: 'answer', exchange, status: '4xx', why: 'a documented problem: the request is malformed' },
        exchange,
      );
    });
  }

  kit.scenario(
    'none of the malformed uploads stored anything',
    { profile: 'full', checks: [robustness.hostileRejected] },
    async (tools) => {
      await expectNothingCreated(kit, tools, robustness.hostileRejected, t, pdf);
    },
  );

  const unusable: Array<{ label: string; id: string | null }> = [
    { label: 'no X-Request-Id', id: null },
    { label: 'an X-Request-Id over 200 characters', id: 'r'.repeat(201) },
    { label: 'an X-Request-Id with spaces', id: `conformance ${kit.config.runId} spaces` },
  ];
  for (const { label, id } of unusable) {
    kit.scenario(
      `requests with ${label} each get an id the server made`,
      { profile: 'full', checks: [robustness.requestIdGenerated] },
      async () => {
        const [a, b] = [await kit.api.list({ limit: 1 }, { requestId: id }), await kit.api.list({ limit: 1 }, { requestId: id })];
        kit.check(robustness.requestIdGenerated, { sent: id, ids: [a.headers.get('x-request-id'), b.headers.get('x-request-id')] }, b);
      },
    );
  }
});
