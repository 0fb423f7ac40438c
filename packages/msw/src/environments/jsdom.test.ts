// @vitest-environment jsdom
import { createDocprocClient } from '@docproc-kit/client';
import { describe, expect, it } from 'vitest';
import { describeUploads } from '../../test/upload-scenario.js';

describeUploads('jsdom');

describe("a file jsdom cannot hand over to Node's fetch", () => {
  it('is refused before sending, by an error that names the environment and the fix, not the file', async () => {
    const unreadable = new (class extends Blob {
      override arrayBuffer(): Promise<ArrayBuffer> {
        return Promise.reject(new Error('no bytes here'));
      }
    })(['%PDF-1.7']);
    const docproc = createDocprocClient({
      baseUrl: 'http://docproc.test',
      apiKey: 'docproc-dev-key',
      fetch: () => Promise.reject(new Error('sent')),
    });
    await expect(docproc.uploadDocuments([{ name: 'invoice.pdf', data: unreadable }])).rejects.toThrow(
      /cannot be read in vitest's jsdom environment: .*Pass the bytes instead \(\{ name, data: Uint8Array \}\), or run the test under vitest's node or happy-dom environment/,
    );
  });
});
