// Starts the extraction process from the TypeScript sources, as `npm start` and the tests run the
// server: tsx compiles our modules, then is unregistered before the first document, because pdf.js
// loaded through tsx's loader takes about 180 MB more than loaded by Node itself (233 MB against 55 MB
// resident), which the extraction memory limit would have to carry. An installed kit runs the
// compiled extraction-child.js instead.
import { register } from 'tsx/esm/api';

const unregister = register();
await import('./extraction-child.ts');
await unregister();
