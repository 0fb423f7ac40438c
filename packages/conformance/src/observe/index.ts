/**
 * `@docproc-kit/conformance/observe`: the suite's checks on traffic observed instead of sent (a proxy's, a
 * HAR's), fed plain values (an exchange's method, path, headers, body bytes, multipart parts, status) and
 * answering verdicts, a report and the violating exchanges. What `docproc proxy` and `docproc seed from-har`
 * judge with.
 * @example const observer = createObserver({ target, spec, strict: false, bodyCap: 1 << 20, keep: 1000 }, contract);
 * const judged = observer.observe(seen);
 */
export { EXIT } from '../definitions/config.js';
export type { Exchange } from '../definitions/exchange.js';
export { renderHtmlReport, writeHtmlReport } from '../report/html-report.js';
export type { ConformanceReport } from '../report/report.js';
export type { ObservedBody, ObservedExchange, ObservedMultipart, ObservedPart } from './observed-exchange.js';
export { proxyFacts, type ReportFiles, reportFiles, writeProxyReport } from './observed-report.js';
export { createObserver, type Judged, type Observer, type ObserverSettings, violationLine } from './observer.js';
export type { Side, Verdict } from './verdicts.js';
export type { ObservedSummary, Violation } from './violation-store.js';
