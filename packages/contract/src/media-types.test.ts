import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { BUNDLED } from './bundled.js';
import { mediaTypesOf, namesMediaType } from './media-types.js';
import { bundledSpecPath } from './paths.js';
import type { RawDocument } from './values.js';

const yaml = readFileSync(bundledSpecPath, 'utf8');

describe('the media types of the contract', () => {
  it("are the upload body's, the success answers' and the problems'", () => {
    expect(BUNDLED.mediaTypes).toEqual({ upload: 'multipart/form-data', json: 'application/json', problem: 'application/problem+json' });
  });

  it('follow an edited contract', () => {
    const edited = yaml.replaceAll('application/problem+json:', 'application/vnd.problem+json:');
    expect(mediaTypesOf(load(edited) as RawDocument).problem).toBe('application/vnd.problem+json');
  });

  it('name a contract whose answers of one kind disagree', () => {
    const edited = yaml.replace('application/problem+json:', 'application/json:');
    expect(() => mediaTypesOf(load(edited) as RawDocument)).toThrow(
      /error answers name application\/problem\+json, application\/json, not one/,
    );
  });
});

describe('a Content-Type header', () => {
  it.each([
    ['multipart/form-data; boundary=x', true],
    ['Multipart/Form-Data;boundary=x', true],
    ['multipart/form-data', true],
    ['multipart/mixed; boundary=x', false],
    ['multipart/form-datax', false],
    ['text/plain; x=multipart/form-data', false],
    [undefined, false],
  ])('%s names multipart/form-data: %s', (header, named) => {
    expect(namesMediaType(header, 'multipart/form-data')).toBe(named);
  });
});
