/** The MSW handlers, re-exported: `docproc-kit/msw` is `@docproc-kit/msw`. */
export * from '@docproc-kit/msw';
