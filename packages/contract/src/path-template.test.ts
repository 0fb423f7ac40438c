import { describe, expect, it } from 'vitest';
import { pathTemplate } from './path-template.js';

const get = pathTemplate('/api/v1/documents/get_document/{document_id}');

describe('a path template of the contract', () => {
  it.each([
    ['/api/v1/documents/get_document/7', true],
    ['/api/v1/documents/get_document/', false],
    ['/api/v1/documents/get_document/7/more', false],
    ['/api/v1/documents/get_documentX7', false],
  ])('%s is a path of it: %s', (path, matches) => {
    expect(get.test(path)).toBe(matches);
  });

  it('gives the parameters percent-decoded, and one that is not valid percent-encoding as sent', () => {
    expect(get.values('/api/v1/documents/get_document/4%32')).toEqual(new Map([['document_id', '42']]));
    expect(get.values('/api/v1/documents/get_document/%zz')).toEqual(new Map([['document_id', '%zz']]));
    expect(get.values('/elsewhere/7')).toBeUndefined();
  });

  it('matches a literal part as written, never as a pattern', () => {
    expect(pathTemplate('/a.b/{x}').test('/aXb/1')).toBe(false);
  });
});
