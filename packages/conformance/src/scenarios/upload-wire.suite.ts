import { checks } from '../checks/index.js';
import type { Exchange } from '../definitions/exchange.js';
import { expectNothingCreated } from '../harness/absence.js';
import { describe, openSuite } from '../harness/suite.js';
import { MULTIPART_FORMS, type MultipartForm } from '../inputs/multipart-forms.js';
import { textPdf } from '../inputs/sample-files.js';
import { uploaded } from '../transport/api.js';
import { buildMultipart } from '../transport/multipart.js';

// Every way of writing the upload's body on the wire (inputs/multipart-forms.ts), one upload each, judged by
// the reading the standards give it; what a form refuses must store nothing.
const kit = await openSuite('upload', 'upload-wire');
const { upload } = checks;
const { expectStatus, expectNamesParameter } = kit;
const pdf = textPdf(['docproc conformance', kit.token()]);
const CHECK_OF = {
  accepted: upload.multipartFormsAccepted,
  refused: upload.multipartMalformedRefused,
  either: upload.multipartLenientForms,
} as const;

describe('uploadDocuments reads every way the standards allow writing multipart/form-data', () => {
  for (const reading of ['accepted', 'refused', 'either'] as const) {
    const forms = MULTIPART_FORMS.filter((f) => f.reading === reading);
    const check = CHECK_OF[reading];
    kit.scenario(
      `${reading === 'accepted' ? 'well-formed' : reading === 'refused' ? 'malformed' : 'lenient'} forms: ${forms.map((f) => f.id.replace(/^wire: /, '')).join('; ')}`,
      { profile: 'full', checks: [check] },
      async (tools) => {
        // One token per reading, so what the refused forms left behind is found by one search.
        const t = kit.token(`wire-${reading}`);
        const kept: number[] = [];
        for (const [i, form] of forms.entries()) {
          const exchange = await send(form, `${t}-${i + 1}.pdf`);
          kept.push(...uploaded(exchange).map((d) => d.document_id));
        }
        if (reading !== 'accepted') await expectNothingCreated(kit, tools, CHECK_OF[reading], t, pdf, kept);
      },
    );
  }
});

describe('uploadDocuments refuses text parts, whatever their length', () => {
  // A text part longer than a parser's field-size limit (multer's, busboy's) is refused by that limit before the
  // field's name is judged: the 400 must still name the field, as the contract's "a part under any other name" says.
  kit.scenario(
    'a text field of 2 KiB beside a good file is a 400 naming it, storing nothing',
    { profile: 'full', checks: [upload.wrongField] },
    async (tools) => {
      const t = kit.token('long-text');
      const { body, contentType } = buildMultipart([
        { field: kit.facts.fileField, filename: `${t}.pdf`, contentType: 'application/pdf', data: pdf },
        { field: 'note', data: new TextEncoder().encode('a'.repeat(2048)) },
      ]);
      const exchange = await kit.api.uploadRaw(body, contentType);
      expectStatus(upload.wrongField, exchange, 400, 'a text part under another name than the files field');
      expectNamesParameter(exchange, { in: 'body', name: 'note' });
      await expectNothingCreated(kit, tools, upload.wrongField, t, pdf);
    },
  );
});

async function send(form: MultipartForm, filename: string): Promise<Exchange> {
  const written = form.write({ field: kit.facts.fileField, filename, data: pdf });
  const exchange = await kit.api.uploadRaw(written.body, written.contentType);
  kit.check(
    CHECK_OF[form.reading],
    { form: form.id, exchange, sent: { filename: written.filename ?? filename, size: pdf.length } },
    exchange,
  );
  return exchange;
}
