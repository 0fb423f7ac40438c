import { describe, expect, it } from 'vitest';
import { isReasonPhrase } from './reason-phrases.js';

describe('a reason phrase', () => {
  it.each<[number, string, boolean]>([
    [404, 'Not Found', true],
    [404, 'not found', true],
    [404, ' Not  Found ', true],
    [404, 'not_found', false],
    [404, 'Missing', false],
    [404, '', false],
    [413, 'Content Too Large', true],
    [413, 'Payload Too Large', true],
    [413, 'Request Entity Too Large', true],
    [408, 'Request Time-out', true],
    [422, 'Unprocessable Entity', true],
    [503, 'Not Found', false],
    [499, 'Client Closed Request', true],
    [499, ' ', false],
  ])('of %i: %j is %s', (status, title, expected) => {
    expect(isReasonPhrase(status, title)).toBe(expected);
  });
});
