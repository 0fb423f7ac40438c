import type { FieldError } from '../errors.js';

/**
 * Why an upload's body was refused, as a value: the error code of the contract, a detail for
 * humans and, for `invalid_request`, the offending fields. The route alone turns it into HTTP.
 */
export interface UploadRejection {
  code: 'invalid_request' | 'file_too_large' | 'too_many_files' | 'unsupported_media_type';
  detail: string;
  errors?: FieldError[];
}

/**
 * Carries a rejection through multer's callbacks, which only pass errors along; the parser takes
 * it back out, so nothing between the part and the route decides HTTP.
 */
export class RejectedPart extends Error {
  constructor(readonly rejection: UploadRejection) {
    super(rejection.detail);
    this.name = 'RejectedPart';
  }
}

/** An `invalid_request` rejection naming each offending field of the body. */
export function invalidBody(errors: FieldError[], detail: string): UploadRejection {
  return { code: 'invalid_request', detail, errors };
}
