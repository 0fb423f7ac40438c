// The types of sandbox-resolve.mjs (a plain module, since Node loads it as a resolve hook before tsx can).
import type { ResolveHook } from 'node:module';

export function importedByOracle(parentURL: string | undefined): boolean;
export const resolve: ResolveHook;
