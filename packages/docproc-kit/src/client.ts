/** The typed client, re-exported: `docproc-kit/client` is `@docproc-kit/client`. */
export * from '@docproc-kit/client';
