// The bundled contract's values, read once at start-up by the server, the mock and the CLI. Apart from
// the readers in list-values.ts and upload-limits.ts so that the conformance suite, which reads the
// contract it was given, never parses the bundled one.
import { BUNDLED_DOCUMENT } from './bundled-document.js';
import { type ListValues, listValuesOf } from './list-values.js';
import { type UploadLimits, uploadLimitsOf } from './upload-limits.js';

/** The bundled contract's list values: default and maximum `limit`, longest `search`, the statuses. */
export const CONTRACT_LIST_VALUES: ListValues = listValuesOf(BUNDLED_DOCUMENT);

/** The bundled contract's default upload limits (`x-default-limits`). */
export const CONTRACT_UPLOAD_LIMITS: UploadLimits = uploadLimitsOf(BUNDLED_DOCUMENT);
