/** Per-request upload limits. */
export interface UploadLimits {
  /** Bytes per file. */
  maxFileBytes: number;
  /** Files per request. */
  maxFiles: number;
}

/** The upload operation's path in the contract. */
export const UPLOAD_PATH = '/api/v1/documents/upload_files';
/** The upload operation's extension holding the default limits. */
export const LIMITS_EXTENSION = 'x-default-limits';

interface DefaultLimitsExtension {
  max_file_bytes?: unknown;
  max_files?: unknown;
}

const positive = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`The contract's uploadDocuments x-default-limits.${name} must be a positive integer, not ${JSON.stringify(value)}.`);
  }
  return value;
};

/**
 * Reads an `x-default-limits` extension object (`{ max_file_bytes, max_files }`); throws naming the
 * offending field when it is not a positive integer.
 * @example uploadLimitsFromExtension({ max_file_bytes: 1024, max_files: 2 }); // { maxFileBytes: 1024, maxFiles: 2 }
 */
export function uploadLimitsFromExtension(extension: unknown): UploadLimits {
  const limits = (extension ?? {}) as DefaultLimitsExtension;
  return { maxFileBytes: positive(limits.max_file_bytes, 'max_file_bytes'), maxFiles: positive(limits.max_files, 'max_files') };
}

/**
 * The upload operation's `x-default-limits` from a parsed contract: the one place the defaults are
 * written (the prose of the contract says the same for people).
 * @example uploadLimitsOf(parse(yamlText)); // { maxFileBytes: 26214400, maxFiles: 20 }
 */
export function uploadLimitsOf(document: { paths?: Record<string, unknown> }): UploadLimits {
  const upload = (document.paths?.[UPLOAD_PATH] as { post?: Record<string, unknown> } | undefined)?.post;
  return uploadLimitsFromExtension(upload?.[LIMITS_EXTENSION]);
}
