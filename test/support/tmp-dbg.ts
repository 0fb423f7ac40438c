import { allMutants } from '@docproc-kit/conformance/proofs/mutant-catalog.js';
import { startMutationProxy } from './mutation-proxy.js';
import { startReferenceServer } from './reference-server.js';

const mutant = allMutants.find((m) => m.name === 'unknown-key-accepted')!;
const server = await startReferenceServer({ apiKeys: ['behaviour-key', 'behaviour-other-key'] });
const proxy = await startMutationProxy(server.baseUrl, mutant.mutation({ primary: 'behaviour-key', secondary: 'behaviour-other-key' }));
console.log(proxy.baseUrl);
setTimeout(() => process.exit(0), 200_000);
