import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { LIMITS_EXTENSION, UPLOAD_PATH, type UploadLimits, uploadLimitsFromExtension } from '@docproc-kit/contract/upload-limits.js';
import prismHttp, { type IHttpConfig, type IHttpRequest } from '@stoplight/prism-http';
import { getHttpConfigFromRequest } from '@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js';
import type { IHttpOperation } from '@stoplight/types';
import type { Logger } from 'pino';

/** A request as Prism's engine takes it: headers flattened, the body already read (and made safe). */
export type PrismRequest = IHttpRequest;

/** What Prism's engine made of a request. */
export type PrismAnswer =
  /** A response from the contract: an example (or generated body) for the status Prism chose. */
  | { kind: 'response'; status: number; headers: Record<string, string>; body: unknown; violations: string[]; invalid: InputViolation[] }
  /** Prism could not route or mock the request (unknown path, wrong method, a bad `Prefer`). */
  | { kind: 'refusal'; status: number; title: string; detail: string; headers: Record<string, string> };

/** One way a request broke the contract, as Prism's validator found it: where (`['query', 'limit']`) and why. */
export interface InputViolation {
  path: string[];
  message: string;
}

/** Prism's mock engine, driven as a library (no Prism HTTP server, so no Prism body parser). */
export interface PrismEngine {
  operations: IHttpOperation[];
  /** What an upload may carry: the mocked contract's `x-default-limits` (the bundled contract's when it has none) and the bundled contract's filename length. */
  uploadLimits: UploadLimits & { maxFilenameLength: number };
  answer(request: PrismRequest): Promise<PrismAnswer>;
}

/** Options of {@link createPrismEngine}. */
export interface PrismEngineOptions {
  /** The contract (path or URL). */
  spec: string;
  /** Generate bodies from the schemas instead of serving the examples (`prism mock --dynamic`). */
  dynamic: boolean;
  logger: Logger;
}

const { createInstance, getHttpOperationsFromSpec } = prismHttp;

/**
 * Loads the contract into Prism's http engine with the settings of `prism mock`: requests
 * validated, security checked, examples served (or generated with `dynamic`). Per-request choices
 * (`Prefer: code=404, example=failed, dynamic=true`, or `__code`, `__example`, `__dynamic`) work as
 * they do in Prism's own server.
 * @example const engine = await createPrismEngine({ spec: bundledSpecPath, dynamic: false, logger });
 */
export async function createPrismEngine({ spec, dynamic, logger }: PrismEngineOptions): Promise<PrismEngine> {
  const operations = await getHttpOperationsFromSpec(spec);
  const config: IHttpConfig = {
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic },
  };
  // Prism logs every request at info and its own `success` level; only its warnings are worth a
  // line beside ours.
  const prismLogger = logger.child(
    { component: 'prism' },
    { level: logger.isLevelEnabled('debug') ? 'debug' : 'warn', customLevels: { success: 32 } },
  );
  const prism = createInstance(config, { logger: prismLogger as never });

  const upload = operations.find((op) => op.method === 'post' && op.path === UPLOAD_PATH);
  const extension = (upload as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[LIMITS_EXTENSION];

  return {
    operations,
    uploadLimits: {
      ...(extension === undefined ? BUNDLED.uploadLimits : uploadLimitsFromExtension(extension)),
      maxFilenameLength: BUNDLED.maxFilenameLength,
    },
    async answer(request) {
      const preferences = getHttpConfigFromRequest(request);
      if (preferences._tag === 'Left') return refusal(preferences.left);
      const result = await prism.request(request, operations, { ...config, mock: { ...config.mock, ...definedOnly(preferences.right) } })();
      if (result._tag === 'Left') return refusal(result.left);
      const { output, validations } = result.right;
      return {
        kind: 'response',
        status: output.statusCode,
        headers: { ...output.headers },
        body: output.body,
        violations: [...validations.input, ...validations.output].map((v) => `${(v.path ?? []).join('.')} ${v.message}`.trim()),
        invalid: validations.input.map((v) => ({ path: (v.path ?? []).map(String), message: v.message })),
      };
    },
  };
}

// A preference left out must not switch off what the command line chose (`--dynamic`).
const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

function refusal(error: Error & { status?: number; detail?: string; additional?: { headers?: Record<string, string> } }): PrismAnswer {
  return {
    kind: 'refusal',
    status: typeof error.status === 'number' ? error.status : 500,
    title: error.message,
    detail: error.detail ?? error.message,
    headers: error.additional?.headers ?? {},
  };
}
