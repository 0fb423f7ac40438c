import { type Express, type RequestHandler, Router } from 'express';
import type { Logger } from 'pino';
import { BUNDLED_OPERATIONS } from '../contract/bundled.js';
import { referenceRoutes } from '../http/docs/docs-routes.js';
import { errorHandler, notFound } from '../http/errors.js';
import { createHttpFront } from '../http/http-front.js';
import type { UploadLimits } from '../http/upload/received-upload.js';
import { type Keyring, requireApiKey } from './auth.js';
import { mockControlRoutes } from './controls/controls-routes.js';
import { type FaultRegistry, injectFaults } from './controls/faults.js';
import type { Processor } from './processing/processor.js';
import type { SettingsRegistry } from './processing/settings.js';
import { documentRoutes } from './routes/documents.js';
import type { DocumentStore } from './store/document-store.js';

/** Everything the app is wired from; built by createReferenceService, or by hand in tests. */
export interface AppDeps {
  store: DocumentStore;
  /** Where uploads are received to before the store takes them. */
  tmpDir: string;
  processor: Processor;
  settings: SettingsRegistry;
  /** Per-tenant injected latency and errors (mock controls). */
  faults: FaultRegistry;
  keyring: Keyring;
  logger: Logger;
  clock: () => Date;
  limits: UploadLimits;
  /** Allowed browser origins; `['*']` allows any. */
  corsOrigins: string[];
  /** The public dev key, pre-filled in /docs when it is the accepted key. */
  prefillApiKey?: string;
}

// Polling clients must never be handed a cached list or document.
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/**
 * Wires the Express app: request ids first (so every response has one), then logging, CORS
 * (preflights answered without a key), the API behind its key, the API reference, the mock
 * controls, a 404 for everything else, and the one error handler. It does not listen.
 * @example const app = createApp(deps); app.listen(4010, '127.0.0.1');
 */
export function createApp(deps: AppDeps): Express {
  const { store, processor, settings, faults, keyring, logger, clock, limits, tmpDir } = deps;
  const operationOf = (method: string, pathname: string) => BUNDLED_OPERATIONS.find(method, pathname)?.operationId;
  const app = createHttpFront({ logger, corsOrigins: deps.corsOrigins });
  // The API first: the hot path should not walk the reference routes on every request.
  const api = Router();
  api.use(
    noStore,
    requireApiKey(keyring),
    injectFaults({ faults, operationOf }),
    documentRoutes({ store, processor, clock, limits, tmpDir }),
    notFound,
  );
  app.use('/api/v1', api);
  app.use(referenceRoutes({ prefillApiKey: deps.prefillApiKey, controls: true }));
  app.use(
    '/_mock',
    noStore,
    requireApiKey(keyring),
    mockControlRoutes({ store, processor, settings, faults, clock, operationIds: BUNDLED_OPERATIONS.operationIds }),
  );

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
