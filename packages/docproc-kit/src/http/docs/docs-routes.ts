import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { bundledSpecPath, controlsSpecPath } from '@docproc-kit/contract/paths.js';
import express, { type Request, Router } from 'express';
import { load } from 'js-yaml';
import { methodNotAllowed } from '../errors.js';
import { docsContract } from './docs-contract.js';

/** What the API reference routes need. */
export interface ReferenceDeps {
  /** The contract file to serve (the bundled one by default). */
  specPath?: string;
  /** Pre-fills "Authorize" in the docs page; only ever the public dev key, never a configured one. */
  prefillApiKey?: string;
  /** Offer the mock controls' own OpenAPI document beside the contract (the reference server has them). */
  controls?: boolean;
}

/** The mock controls' OpenAPI document (not part of the contract). */

const baseUrlOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Document Processing Service · API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;
}

function initScript(prefillApiKey: string | undefined, controls: boolean): string {
  const prefill = prefillApiKey
    ? `\n    onComplete: () => window.ui.preauthorizeApiKey('ApiKeyAuth', ${JSON.stringify(prefillApiKey)}),`
    : '';
  // With the controls, the top bar offers both documents; the contract is the first and default.
  const specs = controls
    ? `urls: [{ url: '/docs/openapi.json', name: 'Document Processing Service' }, { url: '/docs/mock-controls.json', name: 'Mock controls (not part of the contract)' }],
    layout: 'StandaloneLayout',`
    : `url: '/docs/openapi.json',
    layout: 'BaseLayout',`;
  return `window.ui = SwaggerUIBundle({
    ${specs}
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],${prefill}
});
`;
}

/**
 * `GET /openapi.json` (the contract, its server pointed at this server) and `GET /docs` (Swagger
 * UI, served from node_modules, no key needed, "Try it out" against this server).
 * @example app.use(referenceRoutes({ prefillApiKey: DEV_API_KEY }));
 */
export function referenceRoutes({ specPath = bundledSpecPath, prefillApiKey, controls = false }: ReferenceDeps = {}): Router {
  const contract = load(readFileSync(specPath, 'utf8')) as Record<string, unknown>;
  const assets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const router = Router();

  router
    .route('/openapi.json')
    .get((req, res) => {
      const servers = [{ url: baseUrlOf(req), description: 'This docproc reference server' }];
      res.set('Cache-Control', 'no-cache').json({ ...contract, servers });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  // What the docs page loads: the same contract without parameter examples, so "Try it out"
  // sends only what the person typed (see docsContract).
  const forDocs = docsContract(contract);
  router.get('/docs/openapi.json', (req, res) => {
    const servers = [{ url: baseUrlOf(req), description: 'This server' }];
    res.set('Cache-Control', 'no-cache').json({ ...forDocs, servers });
  });

  if (controls) {
    // Bundled once, on first use: its problem and error schemas are the contract's own, by reference.
    let bundled: Promise<Record<string, unknown>> | undefined;
    router.get('/docs/mock-controls.json', async (req, res) => {
      bundled ??= SwaggerParser.bundle(controlsSpecPath) as Promise<Record<string, unknown>>;
      const servers = [{ url: baseUrlOf(req), description: 'This server' }];
      res.set('Cache-Control', 'no-cache').json({ ...(await bundled), servers });
    });
  }

  router
    .route('/docs')
    .get((_req, res) => void res.type('html').set('Cache-Control', 'no-cache').send(docsPage()))
    .all(methodNotAllowed(['GET', 'HEAD']));
  router.get(
    '/docs/init.js',
    (_req, res) => void res.type('js').set('Cache-Control', 'no-cache').send(initScript(prefillApiKey, controls)),
  );
  router.use('/docs/assets', express.static(assets, { index: false, fallthrough: true, maxAge: '1h' }));
  router.get('/', (_req, res) => res.redirect(302, '/docs'));

  return router;
}
