import type { ConformanceSuiteConfig } from '../definitions/config.js';
import type { ContractFacts } from '../rules/contract-facts.js';
import type { Api } from './api.js';
import type { AnswerJudge } from './http.js';

/** Thrown instead of sending an upload the deployment's limits forbid: what it was for is not exercised. */
export class OverLimit extends Error {
  override readonly name = 'OverLimit';
}

/** What one upload may carry on this deployment, and an API that never sends more. */
export interface Limits {
  maxFiles: number;
  maxFileBytes: number;
  /** Where the file limit comes from, for reasons: `--max-files is 3`. */
  filesText: string;
  /** Where the size limit comes from: `--max-file-bytes is 65536`. */
  bytesText: string;
  /** `api` with uploads checked against the limits first (`{ beyondLimits: true }` sends one on purpose). */
  guard<J extends AnswerJudge>(api: Api<J>): Api<J>;
}

/**
 * The deployment's limits: `--max-files` / `--max-file-bytes` when given, else the contract's documented
 * defaults, else none (a contract that documents none).
 * @example const limits = createLimits(config, facts); limits.maxFiles // 20 with the bundled contract
 */
export function createLimits(config: Pick<ConformanceSuiteConfig, 'maxFiles' | 'maxFileBytes'>, facts: ContractFacts): Limits {
  const maxFiles = config.maxFiles ?? facts.uploadLimits.maxFiles ?? Number.POSITIVE_INFINITY;
  const maxFileBytes = config.maxFileBytes ?? facts.uploadLimits.maxFileBytes ?? Number.POSITIVE_INFINITY;
  const flag = (given: number | undefined, name: string) => (given === undefined ? `the contract's default ${name}` : `--${name}`);
  const filesText = `${flag(config.maxFiles, 'max-files')} is ${maxFiles}`;
  const bytesText = `${flag(config.maxFileBytes, 'max-file-bytes')} is ${maxFileBytes}`;
  return {
    maxFiles,
    maxFileBytes,
    filesText,
    bytesText,
    guard: (api) => ({
      ...api,
      upload(parts, extra = {}) {
        const { beyondLimits = false, ...rest } = extra;
        if (!beyondLimits) {
          if (parts.length > maxFiles) throw new OverLimit(`needs ${parts.length} files in one upload; ${filesText}`);
          const big = parts.find((p) => p.data.length > maxFileBytes);
          if (big) throw new OverLimit(`needs a file of ${big.data.length} bytes; ${bytesText}`);
        }
        return api.upload(parts, rest);
      },
    }),
  };
}
