import { textFault } from '@docproc-kit/contract/storable-text.js';
import type { FieldError } from '../http/problem.js';

/** Whether a value is a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ERROR_SHAPE = '{"code": "unreadable_document" | "processing_error", "message": "<non-empty text>"}';

/**
 * What is wrong with a document error a control was given (a seeded failure, a forced outcome), or
 * undefined: the contract's DocumentError, with a message every store can hold.
 * @example errorFault({ code: 'processing_error', message: '' }); // 'must be {"code": ...}'
 */
export function errorFault(error: unknown): string | undefined {
  const shaped =
    isObject(error) &&
    (error.code === 'unreadable_document' || error.code === 'processing_error') &&
    typeof error.message === 'string' &&
    error.message.length > 0 &&
    Object.keys(error).every((k) => k === 'code' || k === 'message');
  if (!shaped) return `must be ${ERROR_SHAPE}`;
  const fault = textFault(error.message as string);
  return fault && `message ${fault}`;
}

/**
 * Checks an optional text field of a control's body: a string (when given) that every store can hold.
 * @example checkText(body.content, 'content', errors);
 */
export function checkText(value: unknown, name: string, errors: FieldError[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string') return void errors.push({ in: 'body', name, message: 'must be a string' });
  const fault = textFault(value);
  if (fault) errors.push({ in: 'body', name, message: fault });
}
