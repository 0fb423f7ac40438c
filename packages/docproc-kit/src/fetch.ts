/** The fetch mock, re-exported: `docproc-kit/fetch` is `@docproc-kit/msw/fetch`. */
export * from '@docproc-kit/msw/fetch';
